"""Input and output serializers for the deletion, audit-log, metrics and restore endpoints."""
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from audit.forget import DeleteCriteria
from audit.models import AuditEvent
from memories.models import MemoryType
from access.scope import DEFAULT_USER_ID


class OneOrManyField(serializers.ListField):
    """Accepts "s1" as well as ["s1", "s2"] (the seed passes a single session id)."""

    def to_internal_value(self, data):
        return super().to_internal_value([data] if isinstance(data, (str, int)) else data)


@extend_schema_field({"type": "boolean", "enum": [True], "default": True})
class HardOnlyField(serializers.BooleanField):
    """`hard`: only true is served (the schema says so); `validate_hard` explains a false."""


class DeleteScopeSerializer(serializers.Serializer):
    user_id = serializers.CharField(max_length=128, default=DEFAULT_USER_ID)


class DeleteFilterSerializer(serializers.Serializer):
    entity_refs = OneOrManyField(child=serializers.CharField(max_length=32), required=False, default=list,
                                 max_length=100)
    source_session = OneOrManyField(child=serializers.CharField(max_length=128), required=False, default=list,
                                    max_length=100)
    memory_ids = OneOrManyField(child=serializers.IntegerField(min_value=1), required=False, default=list,
                                max_length=10000)
    types = OneOrManyField(child=serializers.ChoiceField(choices=MemoryType.choices), required=False, default=list)
    before = serializers.DateTimeField(required=False, allow_null=True, default=None)
    hard = HardOnlyField(default=True)

    def validate_hard(self, hard):
        if not hard:
            raise serializers.ValidationError(
                "Only hard deletes are served here; soft forgetting happens through supersession and expiry.")
        return hard


def criteria_from(filter_data: dict) -> DeleteCriteria:
    return DeleteCriteria(**{name: value for name, value in filter_data.items() if name != "hard"})


class DeleteInputSerializer(serializers.Serializer):
    scope = DeleteScopeSerializer(required=False)
    filter = DeleteFilterSerializer()
    audit_reason = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="")
    dry_run = serializers.BooleanField(default=False)


class AuditFilterSerializer(serializers.Serializer):
    user_id = serializers.CharField(max_length=128, default=DEFAULT_USER_ID)
    action = serializers.CharField(max_length=48, required=False)
    since = serializers.DateTimeField(required=False)
    until = serializers.DateTimeField(required=False)


class UserIdQuerySerializer(serializers.Serializer):
    user_id = serializers.CharField(max_length=128, default=DEFAULT_USER_ID)


class AuditEventOutputSerializer(serializers.ModelSerializer):
    class Meta:
        model = AuditEvent
        fields = ["id", "created_at", "actor", "user_id", "action", "target_ids", "counts", "reason"]
