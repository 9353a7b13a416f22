"""Reads of the audit log, always scoped to one user id."""
from datetime import datetime

from django.db.models import QuerySet

from audit.models import AuditEvent


def audit_events(*, user_id: str, action: str | None = None, since: datetime | None = None,
                 until: datetime | None = None) -> QuerySet:
    events = AuditEvent.objects.filter(user_id=user_id)
    if action:
        events = events.filter(action=action)
    if since:
        events = events.filter(created_at__gte=since)
    if until:
        events = events.filter(created_at__lt=until)
    return events.order_by("-created_at", "-id")
