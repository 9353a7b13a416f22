"""Memory-quality metrics on small hand-built data with known answers."""
from datetime import date, datetime, time, timedelta
from datetime import timezone as dt_timezone

import pytest
from django.utils import timezone

from audit.models import AuditEvent
from entities.models import Entity
from entities.services import mentions_record, unresolved_record
from memories.models import MemoryHistory
from metrics.measures import current_metrics, metric_series, snapshot_week, week_start_of
from metrics.models import MetricSnapshot
from metrics.tasks import snapshot_weekly_metrics
from tests import factories
from tests.forgetting.conftest import days_ago


def three_weeks_back():
    """Noon on the Tuesday of the ISO week three weeks before this one."""
    start = week_start_of(timezone.now().date()) - timedelta(days=21)
    return datetime.combine(start + timedelta(days=1), time(12), tzinfo=dt_timezone.utc)


def mention(entity, sessions):
    for session in sessions:
        mentions_record(entities=[entity], session_id=session, at=days_ago(1))


@pytest.fixture
def alices_week(db):
    sarah, alex, sam = (factories.person(name=name) for name in ("Sarah Chen", "Alex Rivera", "Sam Okafor"))
    old = factories.person(name="Old Friend")
    Entity.objects.filter(pk=old.pk).update(created_at=three_weeks_back())
    mention(sarah, ["s1", "s2", "s3"])
    mention(alex, ["s1", "s2", "s3"])
    mention(sam, ["s1", "s2"])
    for n in range(5):
        factories.memory(content=f"Sarah fact {n}", type="fact", entities=[sarah])
    for n in range(2):
        factories.memory(content=f"Alex fact {n}", type="fact", entities=[alex])
    preferences = [factories.memory(content=f"preference {n}") for n in range(10)]
    MemoryHistory.objects.create(user_id="alice", memory=preferences[0], action="superseded", at=days_ago(1))
    unresolved_record(user_id="alice", session_id="s1", mention="the florist")
    for action in ("hard_delete", "hard_delete", "forget_memory"):
        AuditEvent.objects.create(actor="alice", user_id="alice", action=action)
    AuditEvent.objects.filter(pk=AuditEvent.objects.create(actor="alice", user_id="alice", action="hard_delete").pk
                              ).update(created_at=three_weeks_back())


def test_current_metrics_have_known_values_targets_and_levels(alices_week):
    metrics = current_metrics("alice")
    values = {name: (m["value"], m["level"]) for name, m in metrics.items()}
    assert values == {
        "entity_coverage": (0.5, "warn"),  # Sarah (5 memories) strong, Alex (2) weak; Sam not regular
        "avg_memories_per_regular_entity": (3.5, "warn"),
        "entities_created": (3, "ok"),
        "hard_delete_requests": (3, "ok"),
        "preference_supersession_rate": (0.1, "alert"),  # 1 of 10: not below 10 %
        "unresolved_reference_rate": (round(1 / 9, 4), "warn"),  # 1 unresolved vs 8 mentions
    }
    assert metrics["avg_memories_per_regular_entity"]["target"] == "> 5"
    assert all(m["label"] and m["target"] for m in metrics.values())


def test_metrics_of_another_user_are_empty(alices_week):
    metrics = current_metrics("bob")
    assert metrics["entity_coverage"]["value"] is None
    assert metrics["hard_delete_requests"]["value"] == 0
    assert metrics["unresolved_reference_rate"]["value"] is None


def test_no_supersession_at_all_is_a_warning(db):
    for n in range(20):
        factories.memory(content=f"preference {n}")
    assert current_metrics("alice")["preference_supersession_rate"] | {"label": "", "target": ""} == {
        "label": "", "target": "", "value": 0.0, "level": "warn"}


def test_no_supersession_on_a_small_store_is_fine(db):
    for n in range(4):
        factories.memory(content=f"preference {n}")
    assert current_metrics("alice")["preference_supersession_rate"]["level"] == "ok"


@pytest.mark.parametrize("unresolved,resolved,level", [(1, 9, "ok"), (3, 17, "warn"), (2, 8, "alert")])
def test_unresolved_rate_bands(db, unresolved, resolved, level):
    sarah = factories.person(name="Sarah Chen")
    mention(sarah, [f"s{n}" for n in range(resolved)])
    for n in range(unresolved):
        unresolved_record(user_id="alice", session_id="s1", mention=f"someone {n}")
    assert current_metrics("alice")["unresolved_reference_rate"]["level"] == level


def test_weekly_snapshots_feed_a_twelve_week_series(alices_week):
    last_week = week_start_of(timezone.now().date()) - timedelta(days=7)
    assert snapshot_weekly_metrics() == 1
    assert snapshot_weekly_metrics() == 1  # upsert: running twice keeps one row
    assert MetricSnapshot.objects.filter(user_id="alice", week_start=last_week).count() == 1
    series = metric_series("alice")
    assert len(series) == 12
    assert [entry["week_start"] for entry in series][-2:] == [last_week.isoformat(),
                                                             week_start_of(timezone.now().date()).isoformat()]
    assert series[-2]["metrics"] == MetricSnapshot.objects.get(user_id="alice").values
    assert series[0]["metrics"]["entities_created"]["value"] == 0


def test_snapshot_counts_only_that_weeks_rows(alices_week):
    this_week = week_start_of(timezone.now().date())
    values = snapshot_week("alice", this_week - timedelta(days=21)).values
    assert (values["entities_created"]["value"], values["hard_delete_requests"]["value"]) == (1, 1)
    values = snapshot_week("alice", this_week - timedelta(days=14)).values
    assert (values["entities_created"]["value"], values["hard_delete_requests"]["value"]) == (0, 0)
    assert isinstance(date.fromisoformat(metric_series("alice", weeks=2)[0]["week_start"]), date)
