"""Decay half-lives, expiry below the retrieval floor, the 30-day recovery window, purge and restore."""
from datetime import timedelta

import pytest
from django.utils import timezone

from audit.models import AuditEvent
from audit.services import purge_old_audit_events
from entities.models import Entity
from memories.decay import memory_freshness, stale_person_memory_ids
from memories.expiry import MemoryNotExpiredError, expire_memories, memory_restore, purge_expired
from memories.models import Memory, MemoryHistory
from tests import factories
from tests.forgetting.conftest import days_ago

HALF_LIVES = [
    ("preference", "personal", 90),
    ("event", "scheduling", 30),
    ("fact", "personal", 180),
    ("entity", "personal", 365),
    ("relation", "relationship", 180),
    ("fact", "health", 90),
    ("fact", "professional", 365),
]


def aged(days: float, **fields) -> Memory:
    row = factories.memory(confidence=0.8, **fields)
    Memory.objects.filter(pk=row.pk).update(last_reinforced_at=days_ago(days))
    row.refresh_from_db()
    return row


@pytest.mark.parametrize("type,domain,half_life", HALF_LIVES)
def test_freshness_halves_after_each_half_life(db, type, domain, half_life):
    row = aged(half_life, type=type, domain=domain, content=f"a {type} about {domain}")
    assert row.half_life_days == half_life
    assert memory_freshness(row, timezone.now()) == pytest.approx(0.4, abs=1e-3)
    assert memory_freshness(row, timezone.now() + timedelta(days=half_life)) == pytest.approx(0.2, abs=1e-3)


def test_events_with_a_person_not_mentioned_for_180_days_decay_twice_as_fast(db):
    sarah = factories.person(name="Sarah Chen")
    Entity.objects.filter(pk=sarah.pk).update(last_mentioned_at=days_ago(181))
    alex = factories.person(name="Alex Rivera")
    Entity.objects.filter(pk=alex.pk).update(last_mentioned_at=days_ago(10))
    with_sarah = aged(30, type="event", content="lunch with Sarah", entities=[sarah])
    with_alex = aged(30, type="event", content="call with Alex", entities=[alex])
    fact_about_sarah = aged(30, type="fact", content="Sarah lives in Lyon", entities=[sarah])
    ids = [with_sarah.pk, with_alex.pk, fact_about_sarah.pk]
    assert stale_person_memory_ids(ids, timezone.now()) == {with_sarah.pk}
    assert memory_freshness(with_sarah, timezone.now(), stale_person=True) == pytest.approx(0.2, abs=1e-3)
    assert memory_freshness(with_alex, timezone.now()) == pytest.approx(0.4, abs=1e-3)


def test_pinned_memories_do_not_decay(db):
    row = aged(3000, type="event", content="wedding anniversary", pinned=True)
    assert memory_freshness(row, timezone.now()) == pytest.approx(0.8)


def test_a_dated_event_is_fresh_until_it_happens_then_decays_from_its_own_date(db):
    # Mentioned 60 days ago, happening in 10 days: an appointment that is still ahead.
    row = aged(60, type="event", content="dentist appointment", valid_from=timezone.now() + timedelta(days=10))
    now = timezone.now()
    assert memory_freshness(row, now) == pytest.approx(0.8)
    assert memory_freshness(row, now + timedelta(days=40)) == pytest.approx(0.4, abs=1e-3)  # 30 days after it
    assert expire_memories() == 0


def test_expiry_marks_only_memories_below_the_floor(db):
    # event, confidence 0.8, floor 0.05: expires after 30 × log2(16) = 120 days (60 with a stale person).
    sarah = factories.person(name="Sarah Chen")
    Entity.objects.filter(pk=sarah.pk).update(last_mentioned_at=days_ago(200))
    old = aged(121, type="event", content="dentist appointment")
    recent = aged(119, type="event", content="haircut appointment")
    stale = aged(61, type="event", content="coffee with Sarah", entities=[sarah])
    pinned = aged(900, type="event", content="first day at school", pinned=True)
    assert expire_memories() == 2
    status = dict(Memory.objects.values_list("content", "status"))
    assert status == {"dentist appointment": "expired", "haircut appointment": "active",
                      "coffee with Sarah": "expired", "first day at school": "active"}
    assert Memory.objects.get(pk=old.pk).expired_at is not None
    assert MemoryHistory.objects.filter(action="expired").count() == 2
    assert {recent.pk, pinned.pk, stale.pk} <= set(Memory.objects.values_list("pk", flat=True))


def test_running_expiry_twice_gives_the_same_result(db):
    aged(400, type="event", content="dentist appointment")
    assert expire_memories() == 1
    assert expire_memories() == 0
    assert MemoryHistory.objects.filter(action="expired").count() == 1


def test_purge_keeps_the_recovery_window_and_audits_counts_only(db):
    due = aged(400, type="event", content="dentist appointment")
    recoverable = aged(400, type="event", content="eye test")
    Memory.objects.filter(pk=due.pk).update(status="expired", expired_at=days_ago(31))
    Memory.objects.filter(pk=recoverable.pk).update(status="expired", expired_at=days_ago(29))
    factories.memory(user_id="bob", content="bob's expired", type="event")
    Memory.objects.filter(user_id="bob").update(status="expired", expired_at=days_ago(29))
    assert purge_expired() == {"alice": 1}
    assert purge_expired() == {}
    assert list(Memory.objects.values_list("content", flat=True).order_by("content")) == ["bob's expired", "eye test"]
    event = AuditEvent.objects.get(action="purge_expired")
    assert (event.user_id, event.actor, event.counts["memories"], event.target_ids, event.reason) == (
        "alice", "system", 1, {}, "")


def test_restore_brings_an_expired_memory_back_fresh(db):
    row = aged(400, type="event", content="dentist appointment")
    expire_memories()
    restored = memory_restore(memory=Memory.objects.get(pk=row.pk), actor="alice")
    assert (restored.status, restored.expired_at) == ("active", None)
    assert memory_freshness(restored, timezone.now()) == pytest.approx(0.8, abs=1e-3)
    assert AuditEvent.objects.filter(action="memory_restore", target_ids={"memory_ids": [row.pk]}).exists()
    with pytest.raises(MemoryNotExpiredError):
        memory_restore(memory=restored, actor="alice")


def test_audit_events_older_than_90_days_are_purged(db):
    old = AuditEvent.objects.create(actor="alice", action="hard_delete", user_id="alice")
    AuditEvent.objects.filter(pk=old.pk).update(created_at=days_ago(91))
    AuditEvent.objects.create(actor="alice", action="hard_delete", user_id="alice")
    assert purge_old_audit_events() == 1
    assert purge_old_audit_events() == 0
    assert AuditEvent.objects.count() == 1
