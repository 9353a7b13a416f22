"""Scheduled upkeep: schedules created once, and each task safe to run twice — also at the same time."""
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection
from django_q.models import Schedule

from audit.models import AuditEvent
from audit.tasks import purge_audit_events
from entities.models import EntityReview
from memories.models import Memory, MemoryHistory
from memories.tasks import detect_entity_drift, expire_and_purge_memories
from metrics.models import MetricSnapshot
from metrics.tasks import snapshot_weekly_metrics
from recall_site.schedules import ensure_schedules
from tests import factories
from tests.forgetting.conftest import days_ago


def test_schedules_are_created_idempotently(db):
    ensure_schedules()
    ensure_schedules()
    assert sorted(Schedule.objects.values_list("func", "schedule_type")) == [
        ("access.throttling.forget_idle_counts", "H"),
        ("audit.tasks.purge_audit_events", "D"),
        ("ingest.tasks.resume_ingest_jobs", "I"),
        ("memories.tasks.detect_entity_drift", "D"),
        ("memories.tasks.embed_pending_memories", "I"),
        ("memories.tasks.expire_and_purge_memories", "D"),
        ("metrics.tasks.snapshot_weekly_metrics", "W"),
    ]


def test_every_upkeep_task_run_twice_gives_the_same_result(db):
    factories.memory(content="dentist appointment", type="event")
    Memory.objects.update(last_reinforced_at=days_ago(400))
    purged = factories.memory(content="old gym class", type="event")
    Memory.objects.filter(pk=purged.pk).update(status="expired", expired_at=days_ago(40))
    AuditEvent.objects.filter(pk=AuditEvent.objects.create(actor="a", action="x").pk).update(created_at=days_ago(99))

    assert expire_and_purge_memories() == {"expired": 1, "purged": {"alice": 1}}
    assert expire_and_purge_memories() == {"expired": 0, "purged": {}}
    assert purge_audit_events() == 1 and purge_audit_events() == 0
    assert detect_entity_drift() == 0 and detect_entity_drift() == 0
    assert snapshot_weekly_metrics() == snapshot_weekly_metrics() == 1
    assert MetricSnapshot.objects.count() == 1
    assert EntityReview.objects.count() == 0


def _in_thread(task):
    try:
        return task()
    finally:
        connection.close()


@pytest.mark.django_db(transaction=True)
def test_two_expiry_runs_at_once_expire_each_memory_once(recall_config):
    recall_config({"memory_semantic": {"enabled": False}})  # no model load in this committed test
    for n in range(30):
        factories.memory(content=f"old event {n}", type="event")
    Memory.objects.update(last_reinforced_at=days_ago(400))
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(_in_thread, [expire_and_purge_memories, expire_and_purge_memories]))
    assert sum(result["expired"] for result in results) == 30
    assert MemoryHistory.objects.filter(action="expired").count() == 30

    Memory.objects.update(expired_at=days_ago(31))
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(_in_thread, [expire_and_purge_memories, expire_and_purge_memories]))
    assert sum(result["purged"].get("alice", 0) for result in results) == 30
    assert not Memory.objects.exists()
    assert sum(event.counts["memories"] for event in AuditEvent.objects.filter(action="purge_expired")) == 30
