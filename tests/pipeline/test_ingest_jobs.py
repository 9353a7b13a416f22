"""POST /api/v1/ingest with "wait": false: the messages are stored as a job and answered 202; a django-q2 task
runs them through the pipeline, one user's jobs oldest first; a worker that dies mid-job leaves nothing
written twice; a forget of the session or of a person named reaches the waiting messages too."""
import pglock
import pytest
from django.db import connections

from audit.models import AuditEvent
from entities.models import Entity
from forgetting.criteria import DeleteCriteria
from forgetting.services import hard_delete
from ingest import jobs as ingest_jobs
from ingest.jobs import ingest_job_run, ingest_jobs_upkeep
from memories.models import IngestJob, Memory
from memories.services import memory_forget
from recall_site.redaction import REDACTED
from tests.conftest import make_account, token_client
from tests.forgetting.conftest import days_ago, residue
from tests.site.test_prometheus import sample, scrape

URL = "/api/v1/ingest"
STATEMENTS = ["I work at Volkswagen", "ok thanks", "lunch with Sarah Thursday", "My sister Emma lives in Oslo"]


def body(*contents, user_id="alice", session_id="chat-1", wait=False, source="import", first=0):
    messages = [{"role": "user", "content": text, "timestamp": f"2026-11-30T10:00:{first + i:02d}Z",
                 "id": f"m{first + i}"} for i, text in enumerate(contents)]
    return {"user_id": user_id, "session_id": session_id, "source": source, "messages": messages, "wait": wait}


def enqueue(api, *contents, **options) -> IngestJob:
    """Post without running the task (its on_commit never fires in the test's transaction)."""
    response = api.post(URL, body(*contents, **options), format="json")
    assert response.status_code == 202, response.content
    return IngestJob.objects.get(public_id=response.json()["job_id"])


def status(api, job: IngestJob, user_id="alice"):
    return api.get(f"{URL}/{job.public_id}", {"user_id": user_id})


def without_ids(trace: dict) -> dict:
    """A trace with the parts that differ between two users' runs (user id, row ids) left out."""
    messages = [{**entry, "results": [{**result, "memory_id": None, "superseded_ids": []}
                                      for result in entry["results"]]} for entry in trace["messages"]]
    return {**trace, "user_id": None, "messages": messages}


class WorkerDied(BaseException):
    """What a killed worker looks like from inside: nothing after it runs, no except clause catches it."""


def test_wait_false_answers_202_and_the_job_ends_with_the_synchronous_trace(
        alice_api, bob_api, client, django_capture_on_commit_callbacks):
    before = scrape(client)
    with django_capture_on_commit_callbacks(execute=True):
        response = alice_api.post(URL, body(*STATEMENTS), format="json")
        assert response.status_code == 202, response.content
        queued = response.json()
        assert queued["status"] == "queued" and queued["result"] is None
        assert queued["status_url"] == f"/api/v1/ingest/{queued['job_id']}?user_id=alice"
        assert not Memory.objects.exists()

    done = alice_api.get(queued["status_url"])
    assert done.status_code == 200
    job = done.json()
    assert (job["status"], job["attempts"], job["message_count"]) == ("done", 1, 4)
    synchronous = bob_api.post(URL, body(*STATEMENTS, user_id="bob", wait=True), format="json")
    assert synchronous.status_code == 200
    assert without_ids(job["result"]) == without_ids(synchronous.json())
    written = sorted(Memory.objects.filter(user_id="alice").values_list("pk", flat=True))
    assert sorted(r["memory_id"] for e in job["result"]["messages"] for r in e["results"] if r["memory_id"]) == written
    assert IngestJob.objects.get().messages == []  # the words are kept only while they wait
    assert AuditEvent.objects.filter(action="ingest", user_id="alice").count() == 1
    after = scrape(client)
    assert sample(after, "recall_ingest_jobs_total", outcome="done") - sample(
        before, "recall_ingest_jobs_total", outcome="done") == 1


def test_one_users_jobs_run_oldest_first(alice_api):
    first = enqueue(alice_api, "I live in Berlin")
    second = enqueue(alice_api, "I live in Munich", first=1)

    assert ingest_job_run(second.pk) == 2  # the younger job's task runs the older one first

    first.refresh_from_db()
    second.refresh_from_db()
    assert first.finished_at < second.started_at
    berlin = first.result["messages"][0]["results"][0]["memory_id"]
    assert second.result["messages"][0]["outcome"] == "superseded"
    assert second.result["messages"][0]["results"][0]["superseded_ids"] == [berlin]
    assert Memory.objects.get(pk=berlin).status == "superseded"


def test_a_job_waits_while_another_worker_runs_its_users_queue(alice_api):
    job = enqueue(alice_api, "I work at Volkswagen")
    other = connections.create_connection("default")  # another worker's database session
    turn = pglock.advisory("recall-ingest-queue:alice").int_lock_id
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_lock(%s)", [turn])
        assert ingest_job_run(job.pk) == 0
        assert IngestJob.objects.get(pk=job.pk).status == "queued"
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s)", [turn])
    finally:
        other.close()
    assert ingest_job_run(job.pk) == 1
    assert IngestJob.objects.get(pk=job.pk).status == "done"


@pytest.mark.parametrize("dies", ["writing the second message", "finishing the job"])
def test_a_job_whose_worker_died_runs_again_without_writing_anything_twice(alice_api, monkeypatch, dies):
    # Three messages, four memories: the last one says who Emma is and where she lives.
    job = enqueue(alice_api, "I work at Volkswagen", "lunch with Sarah Thursday", "My sister Emma lives in Oslo")
    record, finish = ingest_jobs._progress_record, ingest_jobs._job_done

    def record_then_die(job_id, position, entry):
        record(job_id, position, entry)
        if position == 1:
            raise WorkerDied  # inside the second message's transaction: it rolls back

    def die(job, entries):
        raise WorkerDied

    if dies == "finishing the job":
        monkeypatch.setattr(ingest_jobs, "_job_done", die)
    else:
        monkeypatch.setattr(ingest_jobs, "_progress_record", record_then_die)
    with pytest.raises(WorkerDied):
        ingest_job_run(job.pk)
    job.refresh_from_db()
    assert job.status == "running" and job.attempts == 1
    written_before = Memory.objects.count()
    assert written_before == (1 if dies == "writing the second message" else 4)

    monkeypatch.setattr(ingest_jobs, "_progress_record", record)
    monkeypatch.setattr(ingest_jobs, "_job_done", finish)
    assert ingest_job_run(job.pk) == 1

    job.refresh_from_db()
    assert (job.status, job.attempts) == ("done", 2)
    assert [entry["outcome"] for entry in job.result["messages"]] == ["stored", "stored", "stored"]
    assert Memory.objects.count() == 4 and set(Memory.objects.values_list("occurrences", flat=True)) == {1}
    assert Entity.objects.filter(user_id="alice", canonical_name="Emma").count() == 1


def test_a_job_that_keeps_killing_its_worker_fails_and_the_next_one_runs(alice_api, recall_config):
    recall_config({"ingest_jobs": {"max_attempts": 2}})
    doomed = enqueue(alice_api, "I work at Volkswagen")
    IngestJob.objects.filter(pk=doomed.pk).update(status="running", attempts=2)
    after = enqueue(alice_api, "I live in Oslo", first=1)

    assert ingest_job_run(after.pk) == 1

    assert IngestJob.objects.values_list("status", "error").get(pk=doomed.pk) == ("failed", "worker_died")
    assert IngestJob.objects.get(pk=after.pk).status == "done"
    assert list(Memory.objects.values_list("content", flat=True)) == ["Lives in Oslo"]


def test_a_job_that_fails_is_put_back_holding_up_younger_ones_then_marked_failed(alice_api, monkeypatch,
                                                                                  recall_config):
    recall_config({"ingest_jobs": {"max_attempts": 2}})
    failing = enqueue(alice_api, "I work at Volkswagen")
    younger = enqueue(alice_api, "I live in Oslo", first=1)
    run = ingest_jobs.run_pipeline

    def broken(**kwargs):
        if kwargs["messages"][0].content == "I work at Volkswagen":
            raise RuntimeError("the extractor's endpoint is down")
        return run(**kwargs)

    monkeypatch.setattr(ingest_jobs, "run_pipeline", broken)
    assert ingest_job_run(younger.pk) == 0
    assert IngestJob.objects.values_list("status", "error").get(pk=failing.pk) == ("queued", "error:RuntimeError")
    assert IngestJob.objects.get(pk=younger.pk).status == "queued"  # it does not overtake the older job

    assert ingest_job_run(younger.pk) == 2
    assert IngestJob.objects.values_list("status", "attempts").get(pk=failing.pk) == ("failed", 2)
    assert IngestJob.objects.get(pk=younger.pk).status == "done"


def test_forgetting_a_session_while_its_messages_wait_removes_them(alice_api):
    job = enqueue(alice_api, "My neighbour Ingrid Haugen has two cats", session_id="s-q")
    kept = enqueue(alice_api, "I work at Volkswagen", session_id="s-other", first=1)
    assert "memories_ingestjob.messages ~ Haugen" in residue("alice", ["Haugen"])

    result = hard_delete(user_id="alice", criteria=DeleteCriteria(source_session=["s-q"]), actor="alice")

    assert result["counts"]["ingest_jobs"] == 1
    assert not IngestJob.objects.filter(pk=job.pk).exists() and residue("alice", ["Haugen"]) == []
    assert ingest_job_run(kept.pk) == 1
    assert list(Memory.objects.values_list("content", flat=True)) == ["Works at Volkswagen"]


def test_forgetting_a_person_removes_the_waiting_jobs_that_name_her(alice_api):
    alice_api.post(URL, body("My friend Emma Larsson loves sailing", session_id="s1", wait=True), format="json")
    naming = enqueue(alice_api, "Had coffee with Larsson at Cafe Lido", session_id="s2", first=1)
    other = enqueue(alice_api, "My colleague Jonas Berg plays chess", session_id="s3", first=2)
    emma = Entity.objects.live().get(user_id="alice", normalized_name="emma larsson")

    hard_delete(user_id="alice", criteria=DeleteCriteria(entity_refs=[emma.public_id]), actor="alice")

    assert not IngestJob.objects.filter(pk=naming.pk).exists()
    assert residue("alice", ["Larsson", "Lido"]) == []
    assert ingest_job_run(other.pk) == 1
    kept = list(Memory.objects.values_list("content", flat=True))
    assert kept and all("Jonas Berg" in content for content in kept)


def test_a_job_forgotten_while_it_runs_writes_no_further_message(alice_api, monkeypatch):
    job = enqueue(alice_api, "I work at Volkswagen", "I live in Oslo", session_id="s-run")
    record = ingest_jobs._progress_record

    def record_then_forget(job_id, position, entry):
        record(job_id, position, entry)
        if position == 0:  # the forget waits for this message's transaction, then goes
            hard_delete(user_id="alice", criteria=DeleteCriteria(source_session=["s-run"]), actor="alice")

    monkeypatch.setattr(ingest_jobs, "_progress_record", record_then_forget)
    ingest_job_run(job.pk)

    assert not IngestJob.objects.filter(pk=job.pk).exists()
    assert not Memory.objects.filter(user_id="alice").exists()


def test_forgetting_a_memory_scrubs_it_from_the_trace_of_the_job_that_wrote_it(
        alice_api, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        job = enqueue(alice_api, "My apartment number is 4711 and I work at Volkswagen", "I live in Oslo")
    job.refresh_from_db()
    door = Memory.objects.get(content__contains="4711")  # a memory to forget, with its number

    memory_forget(memory=door, actor="alice")

    traced = status(alice_api, job).json()["result"]["messages"]
    contents = [result["content"] for entry in traced for result in entry["results"]]
    assert REDACTED in contents and not any("4711" in content for content in contents)
    assert "Lives in Oslo" in contents
    # (the message's words stay as the evidence of "Works at Volkswagen", which it also yielded)
    assert [found for found in residue("alice", ["4711"]) if found.startswith("memories_ingestjob")] == []


def test_another_users_job_and_unknown_ids_are_404(alice_api, bob_api):
    job = enqueue(alice_api, "I work at Volkswagen")
    assert status(alice_api, job).json()["status"] == "queued"
    for response in (status(bob_api, job, user_id="bob"), bob_api.get(f"{URL}/ing_0123456789abcdef?user_id=bob"),
                     bob_api.get(f"{URL}/not-a-job-id?user_id=bob")):
        assert response.status_code == 404 and response.json()["error"] == "not_found"
    assert status(bob_api, job).status_code == 403  # bob may not act for alice at all
    both = token_client(make_account("carol", user_ids=["alice", "bob"]))
    assert status(both, job).status_code == 200 and status(both, job, user_id="bob").status_code == 404


@pytest.mark.parametrize("bad", [
    {"messages": []},
    {"messages": [{"role": "user", "content": "I live in Oslo\x00"}]},
    {"messages": [{"role": "robot", "content": "I live in Oslo"}]},
    {"wait": "later"},
    {"session_id": ""},
])
def test_bad_input_with_wait_false_is_400_and_stores_no_job(alice_api, bad):
    response = alice_api.post(URL, body("I live in Oslo") | bad, format="json")
    assert response.status_code == 400 and response.json()["error"] == "invalid"
    assert not IngestJob.objects.exists() and not Memory.objects.exists()


def test_a_job_for_a_user_id_not_granted_is_403_and_stores_nothing(bob_api):
    assert bob_api.post(URL, body("I live in Oslo"), format="json").status_code == 403
    assert not IngestJob.objects.exists()


def test_upkeep_runs_jobs_left_waiting_and_deletes_old_finished_ones(alice_api):
    waiting = enqueue(alice_api, "I work at Volkswagen")
    fresh = enqueue(alice_api, "I live in Oslo", session_id="s2", user_id="alice", first=1)
    IngestJob.objects.filter(pk=waiting.pk).update(created_at=days_ago(0.01))
    old = enqueue(alice_api, "I prefer tea", first=2)
    IngestJob.objects.filter(pk=old.pk).update(status="done", finished_at=days_ago(8), created_at=days_ago(8))

    assert ingest_jobs_upkeep() == {"ran": 2, "deleted": 1}  # the queue of a stale job runs whole, in order

    assert set(IngestJob.objects.values_list("pk", "status")) == {(waiting.pk, "done"), (fresh.pk, "done")}
    assert ingest_jobs_upkeep() == {"ran": 0, "deleted": 0}


def test_a_waiting_job_holds_no_secret_said_in_its_messages(alice_api):
    job = enqueue(alice_api, "The wifi password: sunflower22", "My PIN is 4512")
    assert "sunflower22" not in str(job.messages) and "4512" not in str(job.messages)
    assert [message["content"] for message in job.messages] == ["The wifi password: [redacted]",
                                                                 "My PIN is [redacted]"]
