"""Memories and their sentences live in hash partitions by user: the keys Citus needs, each user's rows in one
partition that a search alone reads, and a migration that moves a populated database both ways without loss."""
import re

import pytest
from django.core.management import call_command
from django.db import IntegrityError, connection, transaction

from memories.models import Memory, MemoryEntity, MemoryHistory, MemorySentence
from memories.partitions import PARTITIONED_TABLES
from memories.tasks import embed_pending_memories
from search.retrieval import search_memories
from search.retrieval.eligible import eligible_clause
from search.retrieval.gating import query_gate
from tests import factories


def _query(sql, params=()):
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def _partitions(table):
    return _query("SELECT count(*) FROM pg_inherits WHERE inhparent = %s::regclass", [table])[0][0]


def _keys(table):
    return dict(_query("SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint "
                       "WHERE conrelid = %s::regclass AND contype IN ('p', 'f') AND conparentid = 0", [table]))


def _snapshot():
    """Every row of the partitioned tables and of those pointing at them, as plain values."""
    return {model.__name__: sorted(model.objects.values_list(*fields))
            for model, fields in ((Memory, ("id", "user_id", "content", "superseded_by_id")),
                                  (MemorySentence, ("id", "user_id", "memory_id")),
                                  (MemoryEntity, ("id", "user_id", "memory_id", "entity_id")),
                                  (MemoryHistory, ("id", "user_id", "memory_id", "action")))}


def test_memories_and_sentences_are_hash_partitioned_by_user_with_keys_that_include_it(db):
    for table in PARTITIONED_TABLES:
        assert _query("SELECT partstrat, a.attname FROM pg_partitioned_table p JOIN pg_attribute a "
                      "ON a.attrelid = p.partrelid AND a.attnum = p.partattrs[0] "
                      "WHERE p.partrelid = %s::regclass", [table]) == [("h", "user_id")]
        assert _partitions(table) == 64
        assert _keys(table)[f"{table}_pkey"] == "PRIMARY KEY (id, user_id)"
    for table in ("memories_memorysentence", "memories_memoryentity", "memories_memoryhistory"):
        assert ("FOREIGN KEY (memory_id, user_id) REFERENCES memories_memory(id, user_id)"
                in " ".join(_keys(table).values())), table
    assert ("FOREIGN KEY (superseded_by_id, user_id) REFERENCES memories_memory(id, user_id)"
            in " ".join(_keys("memories_memory").values()))


def test_a_link_to_another_users_memory_is_refused_by_the_database(transactional_db):
    memory = factories.memory("alice", "sister Sarah lives in Lyon")
    sarah = factories.person("bob", "Sarah")
    with pytest.raises(IntegrityError), transaction.atomic():
        MemoryEntity.objects.create(user_id="bob", memory=memory, entity=sarah)
    assert not MemoryEntity.objects.filter(entity=sarah).exists()


def test_a_users_search_reads_only_the_partition_that_holds_that_user(db):
    factories.memory("alice", "likes green tea")
    factories.memory("bob", "likes black coffee")
    eligible = eligible_clause(user_id="alice", session_id="s1", gate=query_gate("what do I drink"))
    sql, params = eligible.query("m.id")
    plan = "\n".join(row[0] for row in _query(f"EXPLAIN {sql}", params))
    scanned = set(re.findall(r" on (memories_memory_p\d+)", plan))
    (alice_partition,) = {row[0] for row in _query("SELECT tableoid::regclass::text FROM memories_memory "
                                                   "WHERE user_id = 'alice'")}
    assert scanned == {alice_partition}, plan


@pytest.mark.django_db(transaction=True)
def test_the_migration_moves_a_populated_database_to_plain_tables_and_back_without_loss():
    sarah = factories.person("alice", "Sarah Chen")
    old = factories.memory("alice", "Sarah lives in Lyon", entities=[sarah])
    new = factories.memory("alice", "Sarah moved to Paris and works at a bakery", entities=[sarah])
    Memory.objects.filter(pk=old.pk).update(superseded_by=new, status="superseded")
    MemorySentence.objects.create(user_id="alice", memory=new, embedding=[0.1] * 384)
    MemoryHistory.objects.create(user_id="alice", memory=new, action="created")
    for user in ("bob", "carol", "dave"):
        factories.memory(user, f"{user} keeps bees")
    before = _snapshot()
    assert len(before["Memory"]) == 5 and before["MemoryEntity"] and before["MemorySentence"]

    call_command("migrate", "memories", "0016", verbosity=0)  # 64 partitions back to 16
    assert _partitions("memories_memory") == _partitions("memories_memorysentence") == 16
    assert _snapshot() == before
    call_command("migrate", "memories", "0015", verbosity=0)
    for table in PARTITIONED_TABLES:
        assert _partitions(table) == 0 and _keys(table)[f"{table}_pkey"] == "PRIMARY KEY (id)"
    assert _snapshot() == before
    call_command("migrate", "memories", verbosity=0)

    assert _snapshot() == before
    assert _partitions("memories_memory") == 64
    later = factories.memory("alice", "Sarah visits in June")
    assert later.pk > max(row[0] for row in before["Memory"])  # the id sequence kept its place
    (found,) = _query("SELECT id FROM memories_memory WHERE search_vector @@ plainto_tsquery('english', 'bakery')")
    assert found == (new.pk,)  # the generated full-text column and its indexes came back


def test_with_every_partition_holding_tenants_a_repeated_search_keeps_one_plan(db, canary_bypassed):
    """The statements name the user's partition (partitions.user_table): a generic plan reads one table and
    PostgreSQL keeps it. Over the partitioned table it would be costed as reading all 64, and every
    search would be planned anew."""
    for n in range(64):
        factories.memory(f"tenant{n}", f"Tenant {n} has lunch with Sarah on Thursdays")
    factories.memory("alice", "Lunch with Sarah on Thursday")
    embed_pending_memories()
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE memories_memory")
    for _ in range(12):
        assert search_memories(user_id="alice", query="when is lunch with Sarah").hits
    plans = _query("SELECT generic_plans, custom_plans, statement FROM pg_prepared_statements "
                   "WHERE statement LIKE '%%WITH query AS MATERIALIZED%%'")
    assert plans and all(generic > 0 for generic, _, _ in plans), plans
    assert all("memories_memory_p" in statement for _, _, statement in plans)
