"""persist: one transaction per message, session and message ids on every row, embedding per memory_semantic.*."""
import pytest
from django.db import IntegrityError, OperationalError

from entities.models import Alias, Entity, EntityMention, Relation
from ingest.pipeline import persist
from memories.models import Memory, MemoryEntity, MemoryHistory
from tests.pipeline.conftest import ingest


def test_every_row_carries_the_session_and_source_message_ids(run):
    trace = run("Alex is Sarah's partner", "lunch with Sarah Thursday", "I work at Volkswagen", session_id="chat-7")
    memories = Memory.objects.filter(pk__in=trace.memory_ids)
    assert memories.count() == 3
    message_ids = {entry.message_id for entry in trace.entries}
    for memory in memories:
        assert memory.session_id == "chat-7"
        assert len(memory.source_message_ids) == 1 and memory.source_message_ids[0] in message_ids
        assert memory.embedding_status == "pending"
    assert set(Relation.objects.values_list("session_id", flat=True)) == {"chat-7"}
    assert set(EntityMention.objects.values_list("session_id", flat=True)) == {"chat-7"}
    assert set(EntityMention.objects.values_list("source_message_id", flat=True)) <= message_ids


def test_a_failure_leaves_nothing_of_that_message_written(run, monkeypatch):
    def broken_relation_upsert(**kwargs):
        raise IntegrityError("disk on fire")

    monkeypatch.setattr(persist, "relation_upsert", broken_relation_upsert)
    trace = run("I prefer morning meetings", "Alex is Sarah's partner", "lunch with Tom Friday")
    outcomes = [(e.outcome, e.stage, e.reason) for e in trace.entries]
    assert outcomes[0][0] == "stored" and outcomes[2][0] == "stored"
    assert outcomes[1] == ("rejected", "persist", "error:IntegrityError")
    # The failed message wrote nothing: no memory, no Alex, no Sarah, no aliases, mentions or history.
    assert sorted(Memory.objects.values_list("content", flat=True)) == ["Lunch with Tom Friday",
                                                                       "Prefers morning meetings"]
    assert sorted(Entity.objects.filter(kind="person").values_list("canonical_name", flat=True)) == ["Tom"]
    assert not Alias.objects.filter(normalized__in=["alex", "sarah"]).exists()
    assert EntityMention.objects.count() == 1
    assert MemoryHistory.objects.count() == 2


def test_entity_links_have_roles(run):
    trace = run("Alex is Sarah's partner")
    links = {(link.entity.canonical_name, link.role) for link in MemoryEntity.objects.filter(memory_id=trace.memory_ids[0])}
    assert links == {("Alex", "subject"), ("Sarah", "object")}


def test_background_mode_embeds_after_commit(run, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        trace = run("I prefer morning meetings")
    memory = Memory.objects.get(pk=trace.memory_ids[0])
    assert memory.embedding_status == "ready" and len(memory.embedding) == 384


@pytest.mark.django_db(transaction=True)
def test_a_batch_enqueues_one_embedding_job_that_commits_with_its_last_message(monkeypatch):
    from django_q.conf import Conf
    from django_q.models import OrmQ

    monkeypatch.setattr(Conf, "SYNC", False)  # the job stays queued: it can be read
    trace = ingest("I moved to Lisbon last spring.", "My sister Ana works at a bakery in Porto.",
                   "I prefer tea over coffee.", "thanks!")
    [job] = OrmQ.objects.all()
    assert sorted(job.task["args"][0]) == sorted(trace.memory_ids) and len(trace.memory_ids) >= 3
    assert set(Memory.objects.values_list("embedding_status", flat=True)) == {"pending"}


def test_inline_mode_embedding_failure_keeps_the_row(run, recall_config, monkeypatch, django_capture_on_commit_callbacks):
    recall_config({"memory_semantic": {"background_embedding_enabled": False,
                                       "inline_embedding_on_write_when_background_disabled": True}})

    def model_down(*args, **kwargs):
        raise RuntimeError("model unavailable")

    monkeypatch.setattr("memories.embedding_jobs.embed_texts", model_down)
    with django_capture_on_commit_callbacks(execute=True):
        trace = run("I prefer morning meetings")
    memory = Memory.objects.get(pk=trace.memory_ids[0])
    assert (memory.content, memory.embedding_status) == ("Prefers morning meetings", "error")


def test_semantic_off_marks_embedding_disabled(run, recall_config):
    recall_config({"memory_semantic": {"enabled": False}})
    trace = run("I prefer morning meetings")
    assert Memory.objects.get(pk=trace.memory_ids[0]).embedding_status == "disabled"


def test_trace_reports_what_was_stored(db):
    trace = ingest("I prefer morning meetings")
    [entry] = trace.as_dict()["messages"]
    assert entry["outcome"] == "stored" and entry["stage"] == "persist" and entry["score"] >= 0.55
    assert entry["results"][0]["type"] == "preference" and entry["results"][0]["memory_id"]
    assert trace.counts["stored"] == 1


def test_a_reinforce_whose_memory_was_deleted_meanwhile_stores_it_again(run, monkeypatch):
    from ingest.pipeline.reconcile import Reconcile

    run("I prefer morning meetings")
    original = Reconcile.run

    def reconcile_then_the_memory_is_forgotten(self, item, context):
        original(self, item, context)
        assert item.candidates[0].action == "reinforce"
        Memory.objects.filter(pk=item.candidates[0].existing.pk).delete()

    monkeypatch.setattr(Reconcile, "run", reconcile_then_the_memory_is_forgotten)
    trace = run("I prefer morning meetings", session_id="s2")
    assert [entry.outcome for entry in trace.entries] == ["stored"]
    assert list(Memory.objects.values_list("content", "session_id", "occurrences")) == [
        ("Prefers morning meetings", "s2", 1)]


@pytest.mark.django_db(transaction=True)
def test_a_message_aborted_by_a_deadlock_is_written_once_from_its_candidates_as_extracted(monkeypatch):
    from psycopg import errors

    from ingest.pipeline.reconcile import Reconcile

    original, calls = Reconcile.run, []

    def deadlocked_once(self, item, context):
        calls.append(len(item.candidates))
        original(self, item, context)
        if len(calls) == 1:
            try:
                raise errors.DeadlockDetected("deadlock detected")
            except errors.DeadlockDetected as cause:
                raise OperationalError("deadlock detected") from cause

    monkeypatch.setattr(Reconcile, "run", deadlocked_once)
    trace = ingest("I prefer morning meetings", session_id="s1")
    assert [entry.outcome for entry in trace.entries] == ["stored"] and calls == [1, 1]
    assert list(Memory.objects.values_list("content", "occurrences")) == [("Prefers morning meetings", 1)]
