"""Which Recall user ids an account may act for."""
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
