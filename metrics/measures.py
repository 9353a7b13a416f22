"""Memory-quality metrics: current values, weekly snapshots and the 12-week series.

Each metric is reported as {"label", "value", "target", "level"} with level ok / warn / alert:

* entity_coverage — share of regularly mentioned people (≥ metrics.regular_min_sessions distinct
  sessions in metrics.regular_window_days) with more than metrics.weak_entity_max_memories memories.
* avg_memories_per_regular_entity — target > 5; below 3 the person is underrepresented.
* entities_created — new entity nodes in the week (no band: it should track new people).
* hard_delete_requests — hard_delete and forget_memory audit events in the week.
* preference_supersession_rate — preferences superseded in the week ÷ preferences current in it;
  target < 10 %, and near zero is a warning too (pre_filter may be blocking preference signals) once
  at least metrics.supersession_near_zero_min_preferences preferences are current.
* unresolved_reference_rate — unresolved mentions ÷ (unresolved + resolved EntityMention) in the
  week; warn above 10 %, alert above 15 %.

A value is None when there is nothing to measure yet (no regularly mentioned people, no mentions).
"""
from datetime import date, datetime, time, timedelta
from datetime import timezone as dt_timezone

from django.db.models import Count
from django.utils import timezone

from audit.labels import AuditAction
from audit.models import AuditEvent
from entities.models import Entity, EntityKind, EntityMention, UnresolvedReference
from memories.models import Memory, MemoryEntity, MemoryHistory, MemoryType, Status
from metrics.models import MetricSnapshot
from recall_site.config import recall_setting

HARD_DELETE_ACTIONS = (AuditAction.HARD_DELETE, AuditAction.FORGET_MEMORY)
OK, WARN, ALERT = "ok", "warn", "alert"
WEEK = timedelta(days=7)


def current_metrics(user_id: str, now: datetime | None = None) -> dict:
    """The metrics over the last 7 days (coverage over the regular window ending now)."""
    now = now or timezone.now()
    return compute_metrics(user_id, start=now - WEEK, end=now)


def metric_series(user_id: str, weeks: int | None = None, now: datetime | None = None) -> list[dict]:
    """One entry per ISO week, oldest first, ending with the current (partial) week.

    Past weeks come from stored snapshots when there is one, else are computed (not stored).
    """
    now = now or timezone.now()
    weeks = weeks or recall_setting("metrics.series_weeks")
    this_week = week_start_of(now.date())
    starts = [this_week - WEEK * back for back in range(weeks - 1, -1, -1)]
    stored = dict(MetricSnapshot.objects.filter(user_id=user_id, week_start__in=starts)
                  .values_list("week_start", "values"))
    series = []
    for start in starts:
        if start == this_week:
            values = compute_metrics(user_id, start=_midnight(start), end=now)
        else:
            values = stored.get(start) or compute_metrics(user_id, start=_midnight(start), end=_midnight(start + WEEK))
        series.append({"week_start": start.isoformat(), "metrics": values})
    return series


def snapshot_week(user_id: str, week_start: date) -> MetricSnapshot:
    """Compute and store (upsert: safe to run twice at once) the metrics of one finished week."""
    values = compute_metrics(user_id, start=_midnight(week_start), end=_midnight(week_start + WEEK))
    MetricSnapshot.objects.bulk_create(
        [MetricSnapshot(user_id=user_id, week_start=week_start, values=values)],
        update_conflicts=True, unique_fields=["user_id", "week_start"], update_fields=["values"],
    )
    return MetricSnapshot.objects.get(user_id=user_id, week_start=week_start)


def week_start_of(day: date) -> date:
    return day - timedelta(days=day.weekday())


def compute_metrics(user_id: str, *, start: datetime, end: datetime) -> dict:
    config = recall_setting("metrics")
    memory_counts = _regular_entity_memory_counts(user_id, end, config)
    coverage = avg = None
    if memory_counts:
        strong = sum(1 for n in memory_counts if n > config["weak_entity_max_memories"])
        coverage = strong / len(memory_counts)
        avg = sum(memory_counts) / len(memory_counts)
    return {
        "entity_coverage": _coverage(coverage, config),
        "avg_memories_per_regular_entity": _average(avg, config),
        "entities_created": _entities_created(user_id, start, end),
        "hard_delete_requests": _hard_deletes(user_id, start, end, config),
        "preference_supersession_rate": _supersession(*_supersession_counts(user_id, start, end), config),
        "unresolved_reference_rate": _unresolved(_unresolved_rate(user_id, start, end), config),
    }


def _midnight(day: date) -> datetime:
    return datetime.combine(day, time.min, tzinfo=dt_timezone.utc)


def _metric(label: str, value, target: str, level: str = OK) -> dict:
    return {"label": label, "value": value if value is None else round(value, 4), "target": target, "level": level}


# Measurements.

def _regular_entity_memory_counts(user_id: str, end: datetime, config: dict) -> list[int]:
    """Memories attached to each regularly mentioned person (as of `end`)."""
    regular = list(
        EntityMention.objects.filter(
            user_id=user_id, entity__kind=EntityKind.PERSON, entity__deleted_at__isnull=True,
            mentioned_at__gte=end - timedelta(days=config["regular_window_days"]), mentioned_at__lt=end,
        ).values("entity_id").annotate(sessions=Count("session_id", distinct=True))
        .filter(sessions__gte=config["regular_min_sessions"]).values_list("entity_id", flat=True)
    )
    counts = dict(
        MemoryEntity.objects.filter(entity_id__in=regular, memory__created_at__lt=end)
        .exclude(memory__status=Status.EXPIRED)
        .values("entity_id").annotate(n=Count("memory_id", distinct=True)).values_list("entity_id", "n")
    )
    return [counts.get(entity_id, 0) for entity_id in regular]


def _supersession_counts(user_id: str, start: datetime, end: datetime) -> tuple[int, int]:
    """(preferences superseded in the week, preferences current in it)."""
    superseded = MemoryHistory.objects.filter(
        user_id=user_id, action="superseded", memory__type=MemoryType.PREFERENCE)
    in_week = superseded.filter(at__gte=start, at__lt=end).values("memory_id").distinct().count()
    current = (Memory.objects.filter(user_id=user_id, type=MemoryType.PREFERENCE, created_at__lt=end)
               .exclude(status=Status.EXPIRED)
               .exclude(pk__in=superseded.filter(at__lt=start).values("memory_id")).count())
    return in_week, current


def _unresolved_rate(user_id: str, start: datetime, end: datetime) -> float | None:
    unresolved = UnresolvedReference.objects.filter(user_id=user_id, created_at__gte=start, created_at__lt=end).count()
    resolved = EntityMention.objects.filter(user_id=user_id, mentioned_at__gte=start, mentioned_at__lt=end).count()
    total = unresolved + resolved
    return unresolved / total if total else None


# Bands.

def _coverage(value, config) -> dict:
    level = OK
    if value is not None and value < config["coverage_alert_below"]:
        level = ALERT
    elif value is not None and value < config["coverage_warn_below"]:
        level = WARN
    return _metric("Entity coverage", value,
                   f"≥ {config['coverage_warn_below']:.0%} of regularly mentioned people have "
                   f"> {config['weak_entity_max_memories']} memories", level)


def _average(value, config) -> dict:
    level = OK
    if value is not None and value < config["weak_avg_memories_per_entity"]:
        level = ALERT
    elif value is not None and value <= config["target_avg_memories_per_entity"]:
        level = WARN
    return _metric("Avg memories per regularly mentioned person", value,
                   f"> {config['target_avg_memories_per_entity']}", level)


def _entities_created(user_id: str, start: datetime, end: datetime) -> dict:
    created = (Entity.objects.filter(user_id=user_id, created_at__gte=start, created_at__lt=end)
               .exclude(kind=EntityKind.SELF).count())
    return _metric("Entity nodes created this week", created, "grows with new people in the user's life")


def _hard_deletes(user_id: str, start: datetime, end: datetime, config) -> dict:
    requests = AuditEvent.objects.filter(
        user_id=user_id, action__in=HARD_DELETE_ACTIONS, created_at__gte=start, created_at__lt=end).count()
    level = WARN if requests > config["hard_delete_requests_warn"] else OK
    return _metric("Hard-delete requests this week", requests,
                   f"≤ {config['hard_delete_requests_warn']} a week (more suggests privacy concerns)", level)


def _supersession(superseded: int, current: int, config) -> dict:
    """Near zero warns only on a store large enough for a quiet week to mean something (a fresh install is not)."""
    value = superseded / current if current else None
    level = OK
    if value is not None and value >= config["supersession_rate_max"]:
        level = ALERT
    elif (value is not None and value < config["supersession_rate_near_zero"]
          and current >= config["supersession_near_zero_min_preferences"]):
        level = WARN
    return _metric("Preference supersession rate", value,
                   f"< {config['supersession_rate_max']:.0%} a week, but not near zero", level)


def _unresolved(value, config) -> dict:
    level = OK
    if value is not None and value > config["unresolved_rate_alert"]:
        level = ALERT
    elif value is not None and value > config["unresolved_rate_warn"]:
        level = WARN
    return _metric("Unresolved-reference rate", value,
                   f"≤ {config['unresolved_rate_warn']:.0%} (alert above {config['unresolved_rate_alert']:.0%})",
                   level)
