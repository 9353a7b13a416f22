"""Parallel writes of one user take turns: one entity per name, one memory per statement, a forget racing
ingests succeeds (real threads, real transactions)."""
import threading

import pytest
from django.db import connection

from entities.models import Entity
from entities.services import entity_create
from forgetting.criteria import DeleteCriteria
from forgetting.services import hard_delete
from ingest.pipeline import ingest_messages
from ingest.remember import remember_memory
from memories.models import Memory

PARALLEL = 8


def in_parallel(write) -> None:
    """Run write(n) on PARALLEL threads released together, each on its own database connection."""
    start, errors = threading.Barrier(PARALLEL), []

    def run(n):
        try:
            start.wait()
            write(n)
        except Exception as error:  # noqa: BLE001 - collected and asserted below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(n,)) for n in range(PARALLEL)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []


@pytest.fixture
def lexical_only(recall_config):
    recall_config({"memory_semantic": {"enabled": False}})  # no model calls: the race is in the database


@pytest.mark.django_db(transaction=True)
def test_parallel_ingests_naming_a_new_person_create_one_entity(lexical_only):
    def ingest(n):
        trace = ingest_messages(user_id="alice", session_id=f"s{n}", source="import", actor="test", messages=[
            {"role": "user", "content": f"My colleague Jonas Berg is presenting the roadmap on day {n}"}])
        assert trace.counts["rejected"] == 0

    in_parallel(ingest)
    assert Entity.objects.filter(user_id="alice", normalized_name="jonas berg").count() == 1


@pytest.mark.django_db(transaction=True)
def test_parallel_creates_of_one_name_without_the_lock_still_make_one_entity():
    made = []
    in_parallel(lambda n: made.append(entity_create(user_id="alice", name="Jonas Berg").pk))
    assert len(set(made)) == 1 and Entity.objects.filter(user_id="alice").count() == 1


@pytest.mark.django_db(transaction=True)
def test_parallel_identical_remembers_reinforce_one_memory(lexical_only):
    in_parallel(lambda n: remember_memory(user_id="alice", actor="test", session_id=f"s{n}",
                                          content="Prefers window seats on long flights", type="preference",
                                          domain="personal"))
    memory = Memory.objects.get(user_id="alice")
    assert memory.occurrences == PARALLEL


@pytest.mark.django_db(transaction=True)
def test_a_forget_racing_ingests_succeeds_and_every_message_is_kept(lexical_only):
    ingest_messages(user_id="alice", session_id="greta", source="import", actor="test", messages=[
        {"role": "user", "content": "Lunch with Greta Holm on Friday at the harbour cafe"}])
    greta = Entity.objects.get(user_id="alice", normalized_name="greta holm")
    outcomes = []

    def write(n):
        if n == 0:
            hard_delete(user_id="alice", criteria=DeleteCriteria(entity_refs=[greta.public_id]), actor="test")
        else:
            trace = ingest_messages(user_id="alice", session_id=f"s{n}", source="import", actor="test", messages=[
                {"role": "user", "content": f"Dinner with Priya Nair on day {n} at the new ramen place"}])
            outcomes.append(trace.counts)

    in_parallel(write)
    assert all(counts["rejected"] == 0 for counts in outcomes) and len(outcomes) == PARALLEL - 1
    assert not Entity.objects.filter(user_id="alice", normalized_name="greta holm", deleted_at__isnull=True).exists()
    assert not Memory.objects.filter(user_id="alice", content__icontains="greta").exists()
    kept = Memory.objects.filter(user_id="alice", content__icontains="priya")
    assert sum(memory.occurrences for memory in kept) == PARALLEL - 1  # stored, or reinforced as a near-duplicate
