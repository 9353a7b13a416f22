"""Input and output serializers for search, the startup digest and per-turn retrieval."""
from rest_framework import serializers

from access.scope import DEFAULT_USER_ID, ScopeSerializer
from memories.api.serializers import ProfileSerializer
from memories.models import Domain, MemoryType
from recall_site.api_fields import ConfiguredIntegerField


class HintsSerializer(serializers.Serializer):
    entities = serializers.ListField(child=serializers.CharField(max_length=200), required=False, default=list,
                                     max_length=20)
    hop = ConfiguredIntegerField(min_value=0, required=False, allow_null=True, default=None,
                                 limits={"max_value": "memory_retrieval.max_hop"})


class SearchFiltersSerializer(serializers.Serializer):
    domains = serializers.ListField(child=serializers.ChoiceField(choices=Domain.choices), required=False,
                                    min_length=1)
    min_confidence = serializers.FloatField(min_value=0, max_value=1, required=False, allow_null=True)
    include_all_domains = serializers.BooleanField(default=False)


class SearchInputSerializer(serializers.Serializer):
    """The seed's shape, `scope {user_id, session_id}`; a top-level `user_id` or `session_id`, as ingest and
    per-turn retrieval take them, means the same (ignored before, the search ran for user `default`)."""

    query = serializers.CharField(max_length=2000)
    scope = ScopeSerializer(required=False)
    user_id = serializers.CharField(max_length=128, required=False)
    session_id = serializers.CharField(max_length=128, required=False, allow_blank=True)
    hints = HintsSerializer(required=False)
    types = serializers.ListField(child=serializers.ChoiceField(choices=MemoryType.choices), required=False,
                                  min_length=1)
    filters = SearchFiltersSerializer(required=False)
    limit = serializers.IntegerField(min_value=1, max_value=200, required=False)

    def validate(self, data):
        given_scope = self.initial_data.get("scope")
        given_scope = given_scope if isinstance(given_scope, dict) else {}
        scope = dict(data.get("scope") or {})
        for field in ("user_id", "session_id"):
            if field not in data:
                continue
            value = data.pop(field)
            if field in given_scope and scope.get(field) != value:
                raise serializers.ValidationError({field: f"differs from scope.{field}: give it once."})
            scope[field] = value
        if scope:
            data["scope"] = scope
        return data


class TurnInputSerializer(serializers.Serializer):
    user_id = serializers.CharField(max_length=128, default=DEFAULT_USER_ID)
    session_id = serializers.CharField(max_length=128)
    message = serializers.CharField(max_length=8000, trim_whitespace=False)


def entity_refs(memory) -> list[dict]:
    """The entities of a search hit or digest memory (set by ranking.attach_linked_entities)."""
    return memory.linked_entities


class HitOutputSerializer(serializers.Serializer):
    def to_representation(self, hit):
        memory = hit.memory
        return {
            "id": memory.pk, "type": memory.type, "content": hit.content or memory.content,
            "shortened": bool(hit.content) and hit.content != memory.content, "domain": memory.domain,
            "sensitive": memory.sensitive, "scope": memory.scope, "confidence": memory.confidence,
            "importance": memory.importance, "score": round(hit.score, 4), "freshness": round(hit.freshness, 4),
            "reviewed": not memory.needs_review, "pinned": memory.pinned, "entities": entity_refs(memory),
            "session_id": memory.session_id, "source_message_ids": memory.source_message_ids,
            "valid_from": _iso(memory.valid_from), "valid_to": _iso(memory.valid_to),
            "created_at": _iso(memory.created_at),
            "explanation": {"retrievers": hit.retrievers, "hop_path": hit.hop_path, "text": hit.explanation},
        }


class DigestMemorySerializer(serializers.Serializer):
    def to_representation(self, memory):
        return {"id": memory.pk, "type": memory.type, "content": memory.content, "domain": memory.domain,
                "importance": memory.importance, "entities": entity_refs(memory)}


def search_response(outcome) -> dict:
    return {
        "results": HitOutputSerializer(outcome.hits, many=True).data,
        "domain": outcome.domain,
        "domains": outcome.domains,
        "min_confidence": outcome.min_confidence,
        "resolved_entities": [
            {"mention": r.mention, "method": r.method, "hinted": r.hinted,
             "id": r.entity.public_id if r.entity else None, "name": r.entity.canonical_name if r.entity else None}
            for r in outcome.resolved_entities
        ],
        "retrievers": outcome.retrievers,
        "semantic": outcome.semantic,
        "skip_reason": outcome.skip_reason,
        "limit": outcome.limit,
        "matched": outcome.matched,
        "fewer_reason": outcome.fewer_reason,
    }


def digest_response(user_id: str, digest) -> dict:
    return {"user_id": user_id, "profile": ProfileSerializer(digest.profile).data,
            "memories": DigestMemorySerializer(digest.memories, many=True).data, "text": digest.text}


def turn_response(result) -> dict:
    return {"memories": HitOutputSerializer(result.hits, many=True).data, "text": result.text,
            "skip_reason": result.skip_reason, "domain": result.domain}


def _iso(value):
    return value.isoformat() if value else None
