"""What /ingest, /search, /turn and /hydrate answer, for the OpenAPI schema.

The bodies are built elsewhere (`search_serializers.search_response` and friends,
`PipelineTrace.as_dict`); these serializers only describe them, and
tests/site/test_schema.py checks real answers against the schema.
"""
from rest_framework import serializers

from entities.api.serializers import EntityRefSerializer
from memories.api.serializers import ProfileSerializer
from memories.models import Domain, MemoryType, Scope


class HitExplanationSerializer(serializers.Serializer):
    retrievers = serializers.ListField(child=serializers.CharField(), help_text="lexical, semantic, graph")
    hop_path = serializers.CharField(help_text='e.g. "sarah chen -partner_of-> alex"; empty without a walk')
    text = serializers.CharField()


class SearchHitSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    type = serializers.ChoiceField(choices=MemoryType.choices)
    content = serializers.CharField()
    shortened = serializers.BooleanField(help_text="true when `content` was cut (\"…\") so that the limit's hits "
                                                   "fit memory_retrieval.max_chars; GET /memories/<id> has it whole")
    domain = serializers.ChoiceField(choices=Domain.choices)
    sensitive = serializers.BooleanField()
    scope = serializers.ChoiceField(choices=Scope.choices)
    confidence = serializers.FloatField()
    importance = serializers.FloatField()
    score = serializers.FloatField()
    freshness = serializers.FloatField()
    reviewed = serializers.BooleanField(help_text="false while a confident auto memory awaits confirmation")
    pinned = serializers.BooleanField()
    entities = EntityRefSerializer(many=True)
    session_id = serializers.CharField()
    source_message_ids = serializers.ListField(child=serializers.CharField())
    valid_from = serializers.DateTimeField(allow_null=True)
    valid_to = serializers.DateTimeField(allow_null=True)
    created_at = serializers.DateTimeField()
    explanation = HitExplanationSerializer()


class ResolvedMentionSerializer(serializers.Serializer):
    mention = serializers.CharField()
    method = serializers.CharField()
    hinted = serializers.BooleanField()
    id = serializers.CharField(allow_null=True, help_text="the entity's public id; null if unresolved")
    name = serializers.CharField(allow_null=True)


class SearchOutputSerializer(serializers.Serializer):
    results = SearchHitSerializer(many=True)
    domain = serializers.CharField()
    domains = serializers.ListField(child=serializers.CharField())
    min_confidence = serializers.FloatField()
    resolved_entities = ResolvedMentionSerializer(many=True)
    retrievers = serializers.ListField(child=serializers.CharField())
    skip_reason = serializers.CharField(help_text='"no_match" when nothing came back, else empty')
    semantic = serializers.CharField(
        help_text='"ready", or why meaning was not searched: "warming" while the model loads at start, "disabled", '
                  '"canary_timeout", …')
    limit = serializers.IntegerField(help_text="the results asked for (at most memory_retrieval.max_memories)")
    matched = serializers.IntegerField(
        help_text="eligible memories (gate, filters) that some retriever found, before the freshness floor and caps")
    fewer_reason = serializers.CharField(
        help_text='why fewer than `limit` came back: "fewer_matched" (no more eligible memories match), '
                  '"filtered" (the rest faded below the retrieval floor, repeated a kept result or passed '
                  'max_chars); empty when the limit was filled')


class TurnOutputSerializer(serializers.Serializer):
    memories = SearchHitSerializer(many=True)
    text = serializers.CharField(help_text="a ready-to-inject block; empty when skipped")
    skip_reason = serializers.CharField(help_text="short_input, cooldown, already_injected, no_match or empty")
    domain = serializers.CharField()


class DigestMemoryOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    type = serializers.ChoiceField(choices=MemoryType.choices)
    content = serializers.CharField()
    domain = serializers.ChoiceField(choices=Domain.choices)
    importance = serializers.FloatField()
    entities = EntityRefSerializer(many=True)


class DigestOutputSerializer(serializers.Serializer):
    user_id = serializers.CharField()
    profile = ProfileSerializer()
    memories = DigestMemoryOutputSerializer(many=True)
    text = serializers.CharField(help_text="at most memory_hydration.startup_digest_max_chars long")


class CandidateResultSerializer(serializers.Serializer):
    outcome = serializers.CharField()
    stage = serializers.CharField()
    reason = serializers.CharField()
    type = serializers.CharField()
    content = serializers.CharField()
    confidence = serializers.FloatField(
        help_text="the memory's confidence after this message (the candidate's when nothing was written)")
    score = serializers.FloatField(help_text="the same as confidence: its older name, kept for existing clients")
    memory_id = serializers.IntegerField(allow_null=True, help_text="the memory written or reinforced; null if none")
    domain = serializers.CharField()
    superseded_ids = serializers.ListField(child=serializers.IntegerField())
    expired = serializers.BooleanField(help_text="stored already expired: its own date put it below the floor")


class TraceEntrySerializer(serializers.Serializer):
    message_id = serializers.CharField()
    role = serializers.CharField()
    outcome = serializers.CharField(help_text="stored, reinforced, superseded, sent_to_review or rejected")
    stage = serializers.CharField()
    reason = serializers.CharField()
    score = serializers.FloatField(help_text="the message's relevance score from pre_filter, 0..1")
    results = CandidateResultSerializer(many=True)


class IngestOutputSerializer(serializers.Serializer):
    user_id = serializers.CharField()
    session_id = serializers.CharField()
    source = serializers.CharField()
    counts = serializers.DictField(child=serializers.IntegerField(),
                                   help_text="messages per outcome, and expired_on_arrival")
    messages = TraceEntrySerializer(many=True)
    expiry = serializers.DictField(required=False, help_text="per memory type: memories written and how many "
                                   "arrive expired; purged_on: when those are purged; the policy in words")
    dry_run = serializers.BooleanField(required=False, help_text="true: nothing was written")
