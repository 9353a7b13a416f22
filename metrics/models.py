"""Weekly snapshots of each user's memory-quality metrics."""
from django.db import models
from django.utils import timezone


class MetricSnapshot(models.Model):
    """Memory-quality metrics of one user for one ISO week."""

    user_id = models.CharField(max_length=128)
    week_start = models.DateField()
    values = models.JSONField(default=dict)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "audit_metricsnapshot"  # created by the audit app, which held metrics before this app existed
        constraints = [models.UniqueConstraint(fields=["user_id", "week_start"], name="unique_weekly_snapshot")]
        ordering = ["user_id", "week_start"]
