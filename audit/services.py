"""Writing audit events. Call inside the same transaction as the change it records."""
from audit.models import AuditEvent


def audit_record(*, actor: str, action: str, user_id: str = "", target_ids: dict | None = None,
                 counts: dict | None = None, reason: str = "") -> AuditEvent:
    return AuditEvent.objects.create(
        actor=actor,
        user_id=user_id,
        action=action,
        target_ids=target_ids or {},
        counts=counts or {},
        reason=reason,
    )
