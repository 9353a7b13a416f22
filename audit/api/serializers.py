"""Input and output serializers for the audit-log endpoint."""
from rest_framework import serializers

from access.scope import DEFAULT_USER_ID
from audit.models import AuditEvent


class AuditFilterSerializer(serializers.Serializer):
    user_id = serializers.CharField(max_length=128, default=DEFAULT_USER_ID)
    action = serializers.CharField(max_length=48, required=False)
    since = serializers.DateTimeField(required=False)
    until = serializers.DateTimeField(required=False)


class AuditEventOutputSerializer(serializers.ModelSerializer):
    class Meta:
        model = AuditEvent
        fields = ["id", "created_at", "actor", "user_id", "action", "target_ids", "counts", "reason"]
