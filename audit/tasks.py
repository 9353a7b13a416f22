"""Background work (django-q2) for the audit app: audit-log retention. Idempotent."""
from audit.services import purge_old_audit_events


def purge_audit_events() -> int:
    """Daily: delete audit events older than `audit.retention_days`."""
    return purge_old_audit_events()
