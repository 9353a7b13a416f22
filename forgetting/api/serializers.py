"""Input serializers for POST /api/v1/delete (hardDelete / deleteByQuery)."""
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from access.scope import DEFAULT_USER_ID
from forgetting.criteria import DeleteCriteria
from memories.models import MemoryType
from recall_site.api_fields import StrictBooleanField


class OneOrManyField(serializers.ListField):
    """Accepts "s1" as well as ["s1", "s2"] (assistants often pass a single session id)."""

    def to_internal_value(self, data):
        return super().to_internal_value([data] if isinstance(data, (str, int)) else data)


@extend_schema_field({"type": "boolean", "enum": [True], "default": True})
class HardOnlyField(StrictBooleanField):
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
    dry_run = StrictBooleanField(default=False)  # "dry_run": 0 is a 400, never a real delete
