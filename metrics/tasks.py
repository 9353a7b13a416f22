"""Background work (django-q2) for metrics: the weekly snapshot of every user's metrics. Idempotent."""
from datetime import date, timedelta

from django.utils import timezone

from audit.models import AuditEvent
from entities.models import Entity
from memories.models import Memory
from metrics.measures import snapshot_week, week_start_of


def snapshot_weekly_metrics(week_start: date | None = None) -> int:
    """Weekly: store last week's metrics (or `week_start`'s) for every user id that has data (upsert)."""
    week_start = week_start or week_start_of(timezone.now().date()) - timedelta(days=7)
    user_ids = set(Memory.objects.values_list("user_id", flat=True).distinct())
    user_ids |= set(Entity.objects.values_list("user_id", flat=True).distinct())
    user_ids |= set(AuditEvent.objects.exclude(user_id="").values_list("user_id", flat=True).distinct())
    for user_id in sorted(user_ids):
        snapshot_week(user_id, week_start)
    return len(user_ids)
