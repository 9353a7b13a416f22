"""Input and output serializers for the entities, relations and contacts API."""
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from access.scope import DEFAULT_USER_ID
from entities.models import Alias, Entity, EntityKind, Relation, RelationStatus
from recall_site.api_fields import ConfiguredIntegerField

# ------------------------------------------------------------------- inputs

class UserScopeSerializer(serializers.Serializer):
    user_id = serializers.CharField(max_length=128, default=DEFAULT_USER_ID)


class EntityListFilterSerializer(UserScopeSerializer):
    q = serializers.CharField(max_length=200, required=False, default="", allow_blank=True)
    kind = serializers.ChoiceField(choices=EntityKind.choices, required=False, default="")


class ResolveInputSerializer(UserScopeSerializer):
    mention = serializers.CharField(max_length=200)


class GraphQuerySerializer(UserScopeSerializer):
    hop = ConfiguredIntegerField(min_value=1, required=False, limits={"max_value": "entities.graph_max_hop"})


class MergeInputSerializer(UserScopeSerializer):
    winner = serializers.CharField(max_length=32, help_text="public id of the entity that stays")
    loser = serializers.CharField(max_length=32, help_text="public id of the entity merged away")


class AliasInputSerializer(UserScopeSerializer):
    alias = serializers.CharField(max_length=200)


class RelationFilterSerializer(UserScopeSerializer):
    entity = serializers.CharField(max_length=32, required=False, help_text="public id: relations in or out")
    predicate = serializers.CharField(max_length=64, required=False)
    status = serializers.ChoiceField(choices=RelationStatus.choices, default=RelationStatus.ACTIVE)


class RelationCreateInputSerializer(UserScopeSerializer):
    subject = serializers.CharField(max_length=32)
    predicate = serializers.CharField(max_length=64)
    object = serializers.CharField(max_length=32)
    confidence = serializers.FloatField(min_value=0, max_value=1, default=0.9)
    valid_from = serializers.DateTimeField(required=False, allow_null=True, default=None)


class ContactsImportInputSerializer(UserScopeSerializer):
    file = serializers.FileField()
    self_card = serializers.CharField(max_length=200, required=False, default="", allow_blank=True,
                                      help_text="full name on the user's own card (enriches the self entity)")


# ------------------------------------------------------------------ outputs

class EntityRefSerializer(serializers.ModelSerializer):
    id = serializers.CharField(source="public_id")
    name = serializers.CharField(source="canonical_name")

    class Meta:
        model = Entity
        fields = ["id", "name", "kind"]


class AliasOutputSerializer(serializers.ModelSerializer):
    class Meta:
        model = Alias
        fields = ["alias", "normalized", "origin", "created_at"]


class EntityOutputSerializer(EntityRefSerializer):
    aliases = AliasOutputSerializer(many=True, read_only=True)
    memory_count = serializers.IntegerField(read_only=True, default=0)
    mention_session_count = serializers.IntegerField(read_only=True, default=0)

    class Meta:
        model = Entity
        fields = ["id", "name", "kind", "aliases", "memory_count", "mention_session_count", "last_mentioned_at",
                  "created_at", "drift_flagged"]


class RelationOutputSerializer(serializers.ModelSerializer):
    subject = EntityRefSerializer()
    object = EntityRefSerializer()

    class Meta:
        model = Relation
        fields = ["id", "subject", "predicate", "object", "confidence", "valid_from", "valid_to", "status",
                  "source_message_ids", "created_at"]


class MemorySummarySerializer(serializers.Serializer):
    """A memory linked to the entity (read through `Entity.memories`; entities imports nothing of memories)."""
    id = serializers.IntegerField()
    type = serializers.CharField()
    content = serializers.CharField()
    domain = serializers.CharField()
    status = serializers.CharField()
    confidence = serializers.FloatField()
    created_at = serializers.DateTimeField()


class EntityDetailOutputSerializer(EntityOutputSerializer):
    relations = serializers.SerializerMethodField()
    memories = serializers.SerializerMethodField()

    class Meta(EntityOutputSerializer.Meta):
        fields = EntityOutputSerializer.Meta.fields + ["relations", "memories"]

    @extend_schema_field(RelationOutputSerializer(many=True))
    def get_relations(self, entity):
        return RelationOutputSerializer(self.context["relations"], many=True).data

    @extend_schema_field(MemorySummarySerializer(many=True))
    def get_memories(self, entity):
        return MemorySummarySerializer(self.context["memories"], many=True).data


class ResolutionOutputSerializer(serializers.Serializer):
    mention = serializers.CharField()
    method = serializers.CharField()
    score = serializers.FloatField()
    entity = EntityRefSerializer(allow_null=True)
    candidates = EntityRefSerializer(many=True)


class GraphNodeSerializer(EntityRefSerializer):
    depth = serializers.IntegerField()

    class Meta(EntityRefSerializer.Meta):
        fields = EntityRefSerializer.Meta.fields + ["depth"]


class GraphEdgeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    subject = serializers.CharField(help_text="public id")
    predicate = serializers.CharField()
    object = serializers.CharField(help_text="public id")
    confidence = serializers.FloatField()
    depth = serializers.IntegerField()


class GraphOutputSerializer(serializers.Serializer):
    """Describes `graph_payload` for the schema."""

    root = serializers.CharField()
    hop = serializers.IntegerField()
    nodes = GraphNodeSerializer(many=True)
    edges = GraphEdgeSerializer(many=True)


def graph_payload(neighbourhood) -> dict:
    """{root, hop, nodes: [{id, name, kind, depth}], edges: [{id, subject, predicate, object, confidence, depth}]}."""
    return {
        "root": neighbourhood.root.public_id,
        "hop": neighbourhood.hop,
        "nodes": [{**EntityRefSerializer(entity).data, "depth": depth} for entity, depth in neighbourhood.nodes],
        "edges": [
            {"id": relation.pk, "subject": relation.subject.public_id, "predicate": relation.predicate,
             "object": relation.object.public_id, "confidence": relation.confidence, "depth": depth}
            for relation, depth in neighbourhood.edges
        ],
    }
