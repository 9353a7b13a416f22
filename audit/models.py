"""What was done: the audit log (ids and counts, never content)."""
from django.db import models
from django.utils import timezone


class AuditEvent(models.Model):
    """One recorded action. Ids, counts and redacted reasons only — never deleted content."""

    actor = models.CharField(max_length=150)
    user_id = models.CharField(max_length=128, blank=True)
    action = models.CharField(max_length=48)
    target_ids = models.JSONField(default=dict, blank=True)
    counts = models.JSONField(default=dict, blank=True)
    reason = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["user_id", "created_at"]),
            models.Index(fields=["action", "created_at"]),
        ]

    def __str__(self):
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.actor} {self.action}"
