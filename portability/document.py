"""The export document: what `GET /api/v1/export` writes and `POST /api/v1/import` reads.

One JSON object: a header (`format`, `version`, the source `user_id`, `exported_at`), the
profile, then one list per kind of row. Rows refer to each other by the ids of the export:
entities by their public id (`ent_…`), memories by their id in the exporting instance. An
import makes new ids for both and re-maps the links. The serializers below validate a
document before anything is written, and describe it in the OpenAPI schema.
"""
from rest_framework import serializers

from entities.models import AliasOrigin, EntityKind, EntityReviewKind, RelationStatus
from entities.names import normalize_name
from memories.models import Domain, HistoryAction, MemoryType, Scope, Source, Status
from recall_site.api_fields import JSONObjectField, content_field

FORMAT = "recall-export"
VERSION = 1
MAX_INT = 2**31 - 1  # PostgreSQL integer (occurrences)
ID = 128  # user, session and message ids


def chars(max_length: int, **kwargs) -> serializers.CharField:
    return serializers.CharField(max_length=max_length, **kwargs)


def when(**kwargs) -> serializers.DateTimeField:
    return serializers.DateTimeField(**kwargs)


def optional_when() -> serializers.DateTimeField:
    return serializers.DateTimeField(allow_null=True, required=False, default=None)


class ExportedProfileSerializer(serializers.Serializer):
    name = chars(200, allow_blank=True, default="")
    preferences = JSONObjectField(default=dict)
    favorites = JSONObjectField(default=dict)
    assistant_name = chars(100, default="Theo")


class ExportedAliasSerializer(serializers.Serializer):
    alias = chars(200)
    origin = serializers.ChoiceField(choices=AliasOrigin.choices)
    created_at = when()

    def validate_alias(self, alias):
        if not normalize_name(alias):
            raise serializers.ValidationError("An alias needs a letter or a digit.")
        return alias


class ExportedMentionSerializer(serializers.Serializer):
    session_id = chars(ID)
    mentioned_at = when()
    source_message_id = chars(ID, allow_blank=True, default="")


class ExportedEntitySerializer(serializers.Serializer):
    id = chars(32, help_text="The entity's public id in the export; links use it.")
    kind = serializers.ChoiceField(choices=EntityKind.choices)
    name = chars(200)
    created_at = when()
    last_mentioned_at = optional_when()
    drift_flagged = serializers.BooleanField(default=False)
    aliases = ExportedAliasSerializer(many=True, default=list)
    mentions = ExportedMentionSerializer(many=True, default=list)

    def validate_name(self, name):
        if not normalize_name(name):
            raise serializers.ValidationError("A name needs a letter or a digit.")
        return name


class ExportedRelationSerializer(serializers.Serializer):
    subject = chars(32)
    predicate = chars(64)
    object = chars(32)
    confidence = serializers.FloatField(min_value=0, max_value=1)
    valid_from = optional_when()
    valid_to = optional_when()
    status = serializers.ChoiceField(choices=RelationStatus.choices)
    session_id = chars(ID, allow_blank=True, default="")
    source_message_ids = serializers.ListField(child=chars(ID), default=list)
    created_at = when()


class ExportedEntityReviewSerializer(serializers.Serializer):
    """An open entity review: is `entity` the same as `candidate` (ambiguous match), or has it drifted?"""

    kind = serializers.ChoiceField(choices=EntityReviewKind.choices)
    entity = chars(32)
    candidate = chars(32, allow_null=True, required=False, default=None)
    created_at = when()


class ExportedUnresolvedReferenceSerializer(serializers.Serializer):
    session_id = chars(ID, allow_blank=True, default="")
    mention = chars(200)
    reason = chars(64)
    created_at = when()


class ExportedMemoryLinkSerializer(serializers.Serializer):
    entity = chars(32)
    role = chars(16)


class ExportedHistorySerializer(serializers.Serializer):
    action = serializers.ChoiceField(choices=HistoryAction.choices)
    session_id = chars(ID, allow_blank=True, default="")
    related_memory_id = serializers.IntegerField(allow_null=True, required=False, default=None,
                                                 help_text="A memory id of the export, when it is in the export.")
    at = when()


class ExportedMemorySerializer(serializers.Serializer):
    id = serializers.IntegerField(min_value=1, help_text="The memory's id in the export; links use it.")
    session_id = chars(ID)
    scope = serializers.ChoiceField(choices=Scope.choices)
    type = serializers.ChoiceField(choices=MemoryType.choices)
    content = content_field()
    domain = serializers.ChoiceField(choices=Domain.choices)
    sensitive = serializers.BooleanField()
    confidence = serializers.FloatField(min_value=0, max_value=1)
    importance = serializers.FloatField(min_value=0, max_value=1)
    occurrences = serializers.IntegerField(min_value=1, max_value=MAX_INT)
    half_life_days = serializers.FloatField(min_value=0.001, max_value=1e6)
    valid_from = optional_when()
    valid_to = optional_when()
    last_reinforced_at = when()
    created_at = when()
    source = serializers.ChoiceField(choices=Source.choices)
    source_message_ids = serializers.ListField(child=chars(ID), default=list)
    pinned = serializers.BooleanField()
    needs_review = serializers.BooleanField()
    review_reason = chars(32, allow_blank=True, default="")
    reviewed_at = optional_when()
    status = serializers.ChoiceField(choices=Status.choices)
    superseded_by = serializers.IntegerField(allow_null=True, required=False, default=None)
    expired_at = optional_when()
    subject = chars(32, allow_null=True, required=False, default=None)
    attribute = chars(64, allow_blank=True, default="")
    details = JSONObjectField(default=dict)
    entities = ExportedMemoryLinkSerializer(many=True, default=list)
    history = ExportedHistorySerializer(many=True, default=list)


class ExportedSourceMessageSerializer(serializers.Serializer):
    message_id = chars(ID)
    session_id = chars(ID)
    speaker = chars(128, allow_blank=True, default="")
    text = content_field(trim_whitespace=False)
    at = when()


class ExportedAuditEventSerializer(serializers.Serializer):
    """Audit metadata: ids, counts and times, never content. Exported for the record; an import skips it."""

    id = serializers.IntegerField()
    action = chars(48)
    target_ids = serializers.DictField()
    counts = serializers.DictField()
    created_at = when()


class ExportDocumentSerializer(serializers.Serializer):
    format = serializers.ChoiceField(choices=[FORMAT])
    version = serializers.ChoiceField(choices=[VERSION])
    user_id = chars(ID, help_text="The user id the document was exported from.")
    exported_at = when()
    profile = ExportedProfileSerializer()
    entities = ExportedEntitySerializer(many=True)
    relations = ExportedRelationSerializer(many=True)
    entity_reviews = ExportedEntityReviewSerializer(many=True, default=list)
    unresolved_references = ExportedUnresolvedReferenceSerializer(many=True, default=list)
    memories = ExportedMemorySerializer(many=True)
    source_messages = ExportedSourceMessageSerializer(many=True, default=list)
    audit_events = ExportedAuditEventSerializer(many=True, default=list)

    def validate(self, attrs):
        problems = link_problems(attrs)
        if problems:
            raise serializers.ValidationError(problems)
        return attrs


def link_problems(document: dict) -> dict:
    """What the API would refuse, as DRF error details ({"relations": {"3": {"subject": …}}}): links that point
    nowhere in the document, a relation or review of an entity with itself, valid_to before valid_from, an
    expired memory without expired_at, a supersession cycle. (A memory's source message ids may name messages
    whose words are no longer kept: an export holds those ids, so an import takes them.)"""
    entity_ids, problems = set(), {}
    for index, entity in enumerate(document["entities"]):
        if entity["id"] in entity_ids:
            _note(problems, "entities", index, "id", f"The entity id '{entity['id']}' appears twice.")
        entity_ids.add(entity["id"])
    memory_ids = {memory["id"] for memory in document["memories"]}
    if len(memory_ids) < len(document["memories"]):
        problems["memories"] = ["Two memories have the same id."]
    for section, fields in (("relations", ("subject", "object")), ("entity_reviews", ("entity", "candidate"))):
        for index, row in enumerate(document[section]):
            for field in fields:
                if row[field] is not None and row[field] not in entity_ids:
                    _note(problems, section, index, field, f"No entity with id '{row[field]}' in this document.")
    for index, relation in enumerate(document["relations"]):
        if relation["subject"] == relation["object"]:
            _note(problems, "relations", index, "object", "A relation needs two different entities.")
        _check_dates(problems, "relations", index, relation)
    for index, review in enumerate(document["entity_reviews"]):
        if review["candidate"] is not None and review["candidate"] == review["entity"]:
            _note(problems, "entity_reviews", index, "candidate", "An entity cannot be its own candidate.")
    superseded_by = {memory["id"]: memory["superseded_by"] for memory in document["memories"]}
    for index, memory in enumerate(document["memories"]):
        _check_dates(problems, "memories", index, memory)
        if memory["status"] == "expired" and memory["expired_at"] is None:
            _note(problems, "memories", index, "expired_at", "An expired memory needs expired_at.")
        if _supersession_cycle(memory["id"], superseded_by):
            _note(problems, "memories", index, "superseded_by", "The memory is superseded by itself, or in a cycle.")
        refs = [("subject", memory["subject"])] + [("entities", link["entity"]) for link in memory["entities"]]
        for field, ref in refs:
            if ref is not None and ref not in entity_ids:
                _note(problems, "memories", index, field, f"No entity with id '{ref}' in this document.")
        if memory["superseded_by"] is not None and memory["superseded_by"] not in memory_ids:
            _note(problems, "memories", index, "superseded_by",
                  f"No memory with id {memory['superseded_by']} in this document.")
    return problems


def _check_dates(problems: dict, section: str, index: int, row: dict) -> None:
    """valid_to before valid_from would make a memory impossible to edit (every PATCH answers 400)."""
    if row["valid_from"] and row["valid_to"] and row["valid_to"] < row["valid_from"]:
        _note(problems, section, index, "valid_to", "valid_to is before valid_from.")


def _supersession_cycle(start: int, superseded_by: dict) -> bool:
    seen, current = {start}, superseded_by.get(start)
    while current is not None:
        if current in seen:
            return True
        seen.add(current)
        current = superseded_by.get(current)
    return False


def _note(problems: dict, section: str, index: int, field: str, message: str) -> None:
    if isinstance(problems.get(section), dict):
        problems[section].setdefault(str(index), {}).setdefault(field, []).append(message)
    elif section not in problems:
        problems[section] = {str(index): {field: [message]}}
