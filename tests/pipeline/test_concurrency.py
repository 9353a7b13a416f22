"""Parallel writes of one user take turns: one entity per name, one memory per statement (real threads)."""
import threading

import pytest
from django.db import connection

from entities.models import Entity
from memories.models import Memory
from memories.pipeline import ingest_messages
from memories.remember import remember_memory

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
def test_parallel_identical_remembers_reinforce_one_memory(lexical_only):
    in_parallel(lambda n: remember_memory(user_id="alice", actor="test", session_id=f"s{n}",
                                          content="Prefers window seats on long flights", type="preference"))
    memory = Memory.objects.get(user_id="alice")
    assert memory.occurrences == PARALLEL
