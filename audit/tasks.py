"""Background work (django-q2) for the audit app: audit-log retention, weekly metric snapshots and the
VACUUM after a forget. Each is idempotent and safe to run twice at once."""
from datetime import date, timedelta

from django.db import connection
from django_q.models import OrmQ
from django.utils import timezone

from audit.metrics import snapshot_week, week_start_of
from audit.models import AuditEvent
from audit.services import purge_old_audit_events
from entities.models import Entity
from memories.models import Memory
from recall_site.purging import registered


def purge_audit_events() -> int:
    """Daily: delete audit events older than `audit.retention_days`."""
    return purge_old_audit_events()


def snapshot_weekly_metrics(week_start: date | None = None) -> int:
    """Weekly: store last week's metrics (or `week_start`'s) for every user id that has data (upsert)."""
    week_start = week_start or week_start_of(timezone.now().date()) - timedelta(days=7)
    user_ids = set(Memory.objects.values_list("user_id", flat=True).distinct())
    user_ids |= set(Entity.objects.values_list("user_id", flat=True).distinct())
    user_ids |= set(AuditEvent.objects.exclude(user_id="").values_list("user_id", flat=True).distinct())
    for user_id in sorted(user_ids):
        snapshot_week(user_id, week_start)
    return len(user_ids)


def vacuum_after_forget() -> list[str]:
    """After a hard delete: VACUUM the tables it touched, so the deleted rows' dead versions leave the table
    and index pages now, not at autovacuum's next pass (docs/security.md says what PostgreSQL keeps)."""
    tables = [model._meta.db_table for purger in registered() for model in purger.models] + [OrmQ._meta.db_table]
    with connection.cursor() as cursor:
        for table in tables:
            cursor.execute(f'VACUUM (ANALYZE) "{table}"')
    return tables
