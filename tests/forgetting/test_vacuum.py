"""After a hard delete the dead rows leave the table files: the VACUUM that follows a forget runs, and
without it the pages still hold them."""
import pytest
from django.db import connection

from forgetting.criteria import DeleteCriteria
from forgetting.services import hard_delete
from memories.models import Memory
from tests import factories


def heap_bytes(model) -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT sum(pg_relation_size(relid)) FROM pg_partition_tree(%s)", [model._meta.db_table])
        return cursor.fetchone()[0]


def forget_the_session(recall_config, *, vacuum: bool) -> int:
    recall_config({"audit": {"vacuum_after_forget": vacuum}})
    for number in range(200):
        factories.memory(content=f"Kvikk-4711 door code note {number} " + "x" * 300, session_id="secret")
    assert heap_bytes(Memory) > 0
    hard_delete(user_id="alice", criteria=DeleteCriteria(source_session=["secret"]), actor="alice")
    assert not Memory.objects.exists()
    return heap_bytes(Memory)


@pytest.mark.django_db(transaction=True)
def test_a_forget_is_followed_by_a_vacuum_that_empties_the_pages(recall_config):
    assert forget_the_session(recall_config, vacuum=True) == 0


@pytest.mark.django_db(transaction=True)
def test_without_the_vacuum_the_deleted_rows_stay_in_the_pages(recall_config):
    assert forget_the_session(recall_config, vacuum=False) > 0
