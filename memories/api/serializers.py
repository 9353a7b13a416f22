"""Input and output serializers for the memories API."""
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from access.scope import DEFAULT_USER_ID
from entities.api.serializers import EntityRefSerializer
from memories.models import Domain, Memory, MemoryType, Scope, Source, Status, UserProfile
from memories.selectors import update_chain
from recall_site.api_fields import ConfiguredListField, JSONObjectField, content_field


class MemoryOutputSerializer(serializers.ModelSerializer):
    entities = serializers.SerializerMethodField()

    class Meta:
        model = Memory
        fields = [
            "id", "user_id", "session_id", "scope", "type", "content", "domain", "sensitive",
            "confidence", "importance", "occurrences", "half_life_days", "valid_from", "valid_to",
            "last_reinforced_at", "created_at", "updated_at", "source", "source_message_ids", "pinned",
            "needs_review", "review_reason", "status", "superseded_by", "attribute", "entities",
            "embedding_status",
        ]

    @extend_schema_field(EntityRefSerializer(many=True))
    def get_entities(self, memory):
        return [
            {"id": entity.public_id, "name": entity.canonical_name, "kind": entity.kind}
            for entity in memory.entities.all()
        ]


class ChainLinkSerializer(serializers.ModelSerializer):
    class Meta:
        model = Memory
        fields = ["id", "content", "status", "superseded_by", "last_reinforced_at", "created_at"]


class MemoryDetailSerializer(MemoryOutputSerializer):
    """One memory with `update_chain`: the memories it revised and those revising it, oldest first, itself
    included (selectors.update_chain); empty when nothing updates it."""

    update_chain = serializers.SerializerMethodField()

    class Meta(MemoryOutputSerializer.Meta):
        fields = [*MemoryOutputSerializer.Meta.fields, "update_chain"]

    @extend_schema_field(ChainLinkSerializer(many=True))
    def get_update_chain(self, memory):
        return ChainLinkSerializer(update_chain(memory), many=True).data


class RememberInputSerializer(serializers.Serializer):
    user_id = serializers.CharField(max_length=128, default=DEFAULT_USER_ID)
    session_id = serializers.CharField(max_length=128)
    content = content_field()
    type = serializers.ChoiceField(choices=MemoryType.choices, required=False)
    domain = serializers.ChoiceField(choices=Domain.choices, required=False)
    scope = serializers.ChoiceField(choices=Scope.choices, default=Scope.USER_GLOBAL)
    pinned = serializers.BooleanField(default=False)
    importance = serializers.FloatField(min_value=0, max_value=1, required=False)
    confidence = serializers.FloatField(min_value=0, max_value=1, required=False)
    sensitive = serializers.BooleanField(required=False)
    entities = ConfiguredListField(child=serializers.CharField(max_length=200), required=False, default=list,
                                   limits={"max_length": "input_limits.max_entities_per_memory"})
    source_message_id = serializers.CharField(max_length=128, required=False)


class MemoryUpdateInputSerializer(serializers.Serializer):
    """Pass the memory being edited as context["memory"]: a new valid_to is checked against its valid_from."""

    content = content_field(required=False)
    type = serializers.ChoiceField(choices=MemoryType.choices, required=False)
    domain = serializers.ChoiceField(choices=Domain.choices, required=False)
    scope = serializers.ChoiceField(choices=Scope.choices, required=False)
    sensitive = serializers.BooleanField(required=False)
    confidence = serializers.FloatField(min_value=0, max_value=1, required=False)
    importance = serializers.FloatField(min_value=0, max_value=1, required=False)
    pinned = serializers.BooleanField(required=False)
    needs_review = serializers.BooleanField(required=False)
    valid_from = serializers.DateTimeField(required=False, allow_null=True)
    valid_to = serializers.DateTimeField(required=False, allow_null=True)

    def validate(self, attrs):
        memory = self.context.get("memory")
        valid_from = attrs.get("valid_from", getattr(memory, "valid_from", None))
        valid_to = attrs.get("valid_to", getattr(memory, "valid_to", None))
        if valid_from and valid_to and valid_to < valid_from:
            raise serializers.ValidationError({"valid_to": ["valid_to may not be before valid_from."]})
        return attrs


class MemoryFilterSerializer(serializers.Serializer):
    user_id = serializers.CharField(max_length=128, default=DEFAULT_USER_ID)
    type = serializers.ChoiceField(choices=MemoryType.choices, required=False)
    domain = serializers.ChoiceField(choices=Domain.choices, required=False)
    status = serializers.ChoiceField(choices=Status.choices, required=False)
    source = serializers.ChoiceField(choices=Source.choices, required=False)
    session_id = serializers.CharField(max_length=128, required=False)
    pinned = serializers.BooleanField(required=False, allow_null=True, default=None)
    needs_review = serializers.BooleanField(required=False, allow_null=True, default=None)


class ForgetMemoryInputSerializer(serializers.Serializer):
    user_id = serializers.CharField(max_length=128, default=DEFAULT_USER_ID)
    memory_id = serializers.IntegerField(min_value=1)


class ProfileSerializer(serializers.ModelSerializer):
    class Meta:
        model = UserProfile
        fields = ["user_id", "name", "preferences", "favorites", "assistant_name", "updated_at"]
        read_only_fields = ["user_id", "updated_at"]


class ProfileUpdateInputSerializer(serializers.Serializer):
    user_id = serializers.CharField(max_length=128, default=DEFAULT_USER_ID)
    name = serializers.CharField(max_length=200, required=False, allow_blank=True)
    preferences = JSONObjectField(required=False)
    favorites = JSONObjectField(required=False)
    assistant_name = serializers.CharField(max_length=100, required=False)


class ForgetOutputSerializer(serializers.Serializer):
    deleted = serializers.BooleanField()
    memory_id = serializers.IntegerField()
    counts = serializers.DictField(child=serializers.IntegerField(), help_text="rows deleted per table")
