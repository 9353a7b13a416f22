"""Writing audit events (call inside the same transaction as the change it records) and their retention."""
from datetime import datetime, timedelta

from django.utils import timezone

from audit.labels import AuditAction
from audit.models import AuditEvent
from recall_site.config import recall_setting


def audit_record(*, actor: str, action: AuditAction | str, user_id: str = "", target_ids: dict | None = None,
                 counts: dict | None = None, reason: str = "") -> AuditEvent:
    return AuditEvent.objects.create(
        actor=actor,
        user_id=user_id,
        action=action,
        target_ids=target_ids or {},
        counts=counts or {},
        reason=reason,
    )


def purge_old_audit_events(now: datetime | None = None) -> int:
    """Audit events are kept `audit.retention_days`, then deleted (idempotent, safe to run twice)."""
    now = now or timezone.now()
    cutoff = now - timedelta(days=recall_setting("audit.retention_days"))
    return AuditEvent.objects.filter(created_at__lt=cutoff).delete()[0]
