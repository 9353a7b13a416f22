"""Which Recall user ids an account may act for, and the API rate limits' shared counts."""
from django.conf import settings
from django.db import models
from django.utils import timezone


class UserIdGrant(models.Model):
    """Lets a (non-staff) account act for one Recall user_id. Staff may act for any."""

    account = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="user_id_grants")
    user_id = models.CharField(max_length=128)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = "user ID grant"
        db_table = "audit_useridgrant"  # created by the audit app, which held grants before access existed
        constraints = [models.UniqueConstraint(fields=["account", "user_id"], name="unique_grant")]

    def __str__(self):
        return f"{self.account} → {self.user_id}"


class RateLimitCount(models.Model):
    """One rate limit's state for one key (a token's account, a client IP), shared by every web process: the
    time its bucket is full again (`tat`, seconds since the epoch by PostgreSQL's clock; access/throttling.py),
    and the limit last counted: seconds a request takes from the bucket, seconds the bucket holds. A row whose
    `tat` has passed holds nothing and may go."""

    # Keyed by API token or client IP, not by user: under Citus it stays one small table on the coordinator.
    citus_reference = True

    key = models.CharField(max_length=200, primary_key=True)
    tat = models.FloatField()
    interval = models.FloatField()
    period = models.FloatField()

    class Meta:
        verbose_name = "rate limit count"
