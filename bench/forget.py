"""Forget benchmark: hard-delete an entity with 10k attached memories across 50 sessions, and one
session holding 1k memories. Prints wall time and rows removed for each (dry run and real delete).

    python bench/forget.py [--memories 10000] [--sessions 50] [--session-memories 1000] [--repeat 5]

Each case first runs `--repeat` rehearsals — the full hard delete with foreign keys checked
immediately, then rolled back — and reports their median, then one real, committed delete.

Runs in its own database (bench_recall_forget, kept between runs); rows are bulk-inserted directly
with random unit-vector embeddings, so no model is loaded.
"""
import argparse
import os
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
import bench_path  # noqa: E402, F401 - first: the apps before this directory on sys.path

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "recall_site.settings")
os.environ.setdefault("DEBUG", "false")  # as in production: no per-query debug recording
os.environ["RECALL_TEST_DB_NAME"] = "bench_recall_forget"

USER_ID = "bench"
BATCH = 2000


def random_unit_vectors(count: int, rng) -> np.ndarray:
    vectors = rng.standard_normal((count, 384)).astype(np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def insert_memories(sessions: list[str], per_session: int, entities, rng, who: str) -> int:
    from memories.models import Memory, MemoryEntity, MemoryHistory

    vectors = iter(random_unit_vectors(len(sessions) * per_session, rng))
    rows = [
        Memory(user_id=USER_ID, session_id=session, type="event", content=f"meeting {n} in {session} with {who}",
               embedding=next(vectors), embedding_status="ready")
        for session in sessions for n in range(per_session)
    ]
    Memory.objects.bulk_create(rows, batch_size=BATCH)
    MemoryEntity.objects.bulk_create(
        [MemoryEntity(user_id=USER_ID, memory=row, entity=entity) for row in rows for entity in entities],
        batch_size=BATCH)
    MemoryHistory.objects.bulk_create(
        [MemoryHistory(user_id=USER_ID, memory=row, action="created", session_id=row.session_id) for row in rows],
        batch_size=BATCH)
    return len(rows)


def build(memories: int, sessions: int, session_memories: int):
    from entities.services import alias_add, entity_create, mentions_record, relation_upsert

    rng = np.random.default_rng(7)
    sarah = entity_create(user_id=USER_ID, name="Sarah Chen")
    alias_add(entity=sarah, alias="Sarah")
    alex = entity_create(user_id=USER_ID, name="Alex Rivera")
    relation_upsert(subject=alex, predicate="partner_of", object=sarah)
    sarah_sessions = [f"sarah-{n:02d}" for n in range(sessions)]
    for session in sarah_sessions:
        mentions_record(entities=[sarah], session_id=session)
    insert_memories(sarah_sessions, memories // sessions, [sarah], rng, "Sarah")
    # A forget also takes every memory whose text names her: these name only Alex.
    insert_memories(["big-session"], session_memories, [alex], rng, "Alex")
    insert_memories([f"other-{n}" for n in range(10)], 200, [alex], rng, "Alex")  # must survive both deletes
    return sarah


def rehearse(user_id: str, criteria) -> float:
    """One hard delete with every foreign-key check done before the clock stops, then rolled back."""
    from django.db import connection, transaction

    from forgetting.services import hard_delete

    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        began = time.perf_counter()
        hard_delete(user_id=user_id, criteria=criteria, actor="bench")
        elapsed = time.perf_counter() - began
        transaction.set_rollback(True)
    return elapsed


def measure(label: str, criteria, repeat: int) -> None:
    from forgetting.services import deletion_counts, hard_delete

    rehearsals = sorted(rehearse(USER_ID, criteria) for _ in range(repeat))
    began = time.perf_counter()
    planned = deletion_counts(user_id=USER_ID, criteria=criteria)
    dry = time.perf_counter() - began
    began = time.perf_counter()
    result = hard_delete(user_id=USER_ID, criteria=criteria, actor="bench", audit_reason="benchmark")
    wall = time.perf_counter() - began
    counts = result["counts"]
    assert counts == planned, (counts, planned)
    median = f", median of {repeat} rehearsals {rehearsals[len(rehearsals) // 2] * 1000:.0f} ms" if repeat else ""
    print(f"{label}: hard_delete {wall * 1000:.0f} ms committed{median}, dry run {dry * 1000:.0f} ms, "
          f"rows removed {sum(v for k, v in counts.items() if k != 'superseded_links_cleared')} "
          f"(memories {counts['memories']}, links {counts['memory_entity_links']}, "
          f"history {counts['memory_history']}, mentions {counts['mentions']}, aliases {counts['aliases']}, "
          f"relations {counts['relations']}, tombstoned {counts['entities_tombstoned']})", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--sessions", type=int, default=50)
    parser.add_argument("--session-memories", type=int, default=1_000)
    parser.add_argument("--repeat", type=int, default=5, help="rolled-back rehearsals before the real delete")
    args = parser.parse_args()
    import logging

    import django

    django.setup()
    logging.getLogger("recall.request").setLevel(logging.WARNING)  # one access line per request otherwise
    from django.db import connection

    from audit.models import AuditEvent
    from entities.models import Entity
    from forgetting.criteria import DeleteCriteria
    from memories.models import Memory

    connection.creation.create_test_db(verbosity=0, keepdb=True)
    Memory.objects.filter(user_id=USER_ID).delete()
    Entity.objects.filter(user_id=USER_ID).delete()
    AuditEvent.objects.filter(user_id=USER_ID).delete()
    began = time.perf_counter()
    sarah = build(args.memories, args.sessions, args.session_memories)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    print(f"loaded {Memory.objects.filter(user_id=USER_ID).count()} memories in "
          f"{time.perf_counter() - began:.1f}s", flush=True)
    measure(f"entity ({args.memories} memories, {args.sessions} sessions)",
            DeleteCriteria(entity_refs=[sarah.public_id]), args.repeat)
    measure(f"session ({args.session_memories} memories)", DeleteCriteria(source_session=["big-session"]),
            args.repeat)
    print(f"surviving memories: {Memory.objects.filter(user_id=USER_ID).count()}; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
