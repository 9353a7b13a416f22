"""Reading everything Recall holds for one user id, as the rows of an export document (portability/document.py).

`export_sections` yields each section's rows in document order; `export_json` and `export_jsonl`
turn them into text chunks for a streaming response, so a large export is never held whole in
memory. Querysets are read in chunks of `CHUNK` rows, their history and links prefetched per chunk.

Only live entities are exported: a tombstone of a forgotten person keeps no name, and a link to
one (a kept relation, say) is left out. Links name exported rows only, so the document imports
even when a write lands between two sections.
"""
import json
from collections.abc import Iterator
from datetime import datetime

from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import Prefetch
from django.utils import timezone

from audit.models import AuditEvent
from entities.models import Alias, Entity, EntityMention, EntityReview, Relation, UnresolvedReference
from memories.models import Memory, MemoryEntity, SourceMessage, UserProfile
from portability.document import FORMAT, VERSION

CHUNK = 500
# The name of one row of each section in JSON Lines ({"record": "memory", ...}).
RECORD_NAMES = {
    "entities": "entity", "relations": "relation", "entity_reviews": "entity_review",
    "unresolved_references": "unresolved_reference", "memories": "memory", "source_messages": "source_message",
    "audit_events": "audit_event",
}


class ExportEncoder(DjangoJSONEncoder):
    """Times with their microseconds (DjangoJSONEncoder keeps milliseconds), so a round trip changes none."""

    def default(self, o):
        return o.isoformat() if isinstance(o, datetime) else super().default(o)


def dumps(value) -> str:
    return json.dumps(value, cls=ExportEncoder, ensure_ascii=False)


def export_header(user_id: str) -> dict:
    return {"format": FORMAT, "version": VERSION, "user_id": user_id, "exported_at": timezone.now(),
            "profile": _profile(user_id)}


def export_sections(user_id: str) -> Iterator[tuple[str, Iterator[dict]]]:
    """(section name, its rows) in document order; the rows are read as they are consumed."""
    entity_ids = dict(Entity.objects.live().for_user(user_id).values_list("pk", "public_id"))
    memory_ids = set(Memory.objects.for_user(user_id).values_list("pk", flat=True))
    yield "entities", _entities(user_id, entity_ids)
    yield "relations", _relations(user_id, entity_ids)
    yield "entity_reviews", _entity_reviews(user_id, entity_ids)
    yield "unresolved_references", _unresolved(user_id)
    yield "memories", _memories(user_id, entity_ids, memory_ids)
    yield "source_messages", _source_messages(user_id)
    yield "audit_events", _audit_events(user_id)


def export_json(user_id: str) -> Iterator[str]:
    """The export as one JSON object, in chunks."""
    yield dumps(export_header(user_id))[:-1]  # the closing brace comes after the sections
    for section, rows in export_sections(user_id):
        yield f", {dumps(section)}: ["
        for index, row in enumerate(rows):
            yield (", " if index else "") + dumps(row)
        yield "]"
    yield "}"


def export_jsonl(user_id: str) -> Iterator[str]:
    """The export as JSON Lines: the header (with the profile), then one line per row, named by `record`."""
    yield dumps({"record": "header", **export_header(user_id)}) + "\n"
    for section, rows in export_sections(user_id):
        for row in rows:
            yield dumps({"record": RECORD_NAMES[section], **row}) + "\n"


def _profile(user_id: str) -> dict:
    profile = UserProfile.objects.filter(user_id=user_id).first() or UserProfile(user_id=user_id)
    return {"name": profile.name, "preferences": profile.preferences, "favorites": profile.favorites,
            "assistant_name": profile.assistant_name}


def _entities(user_id: str, entity_ids: dict) -> Iterator[dict]:
    entities = (Entity.objects.live().for_user(user_id).order_by("pk")
                .only("public_id", "kind", "canonical_name", "created_at", "last_mentioned_at", "drift_flagged")
                .prefetch_related(Prefetch("aliases", Alias.objects.order_by("pk")),
                                  Prefetch("mentions", EntityMention.objects.order_by("pk"))))
    for entity in entities.iterator(chunk_size=CHUNK):
        if entity.pk not in entity_ids:  # made since the export began
            continue
        yield {
            "id": entity.public_id, "kind": entity.kind, "name": entity.canonical_name,
            "created_at": entity.created_at, "last_mentioned_at": entity.last_mentioned_at,
            "drift_flagged": entity.drift_flagged,
            "aliases": [{"alias": a.alias, "origin": a.origin, "created_at": a.created_at}
                        for a in entity.aliases.all()],
            "mentions": [{"session_id": m.session_id, "mentioned_at": m.mentioned_at,
                          "source_message_id": m.source_message_id} for m in entity.mentions.all()],
        }


def _relations(user_id: str, entity_ids: dict) -> Iterator[dict]:
    for relation in Relation.objects.filter(user_id=user_id).order_by("pk").iterator(chunk_size=CHUNK):
        if relation.subject_id in entity_ids and relation.object_id in entity_ids:
            yield {
                "subject": entity_ids[relation.subject_id], "predicate": relation.predicate,
                "object": entity_ids[relation.object_id], "confidence": relation.confidence,
                "valid_from": relation.valid_from, "valid_to": relation.valid_to, "status": relation.status,
                "session_id": relation.session_id, "source_message_ids": relation.source_message_ids,
                "created_at": relation.created_at,
            }


def _entity_reviews(user_id: str, entity_ids: dict) -> Iterator[dict]:
    """Open reviews only: a resolved one has done its work (its outcome is in the entities and the audit log)."""
    reviews = EntityReview.objects.filter(user_id=user_id, resolved_at__isnull=True).order_by("pk")
    for review in reviews.iterator(chunk_size=CHUNK):
        if review.entity_id in entity_ids and (review.candidate_id is None or review.candidate_id in entity_ids):
            yield {"kind": review.kind, "entity": entity_ids[review.entity_id],
                   "candidate": entity_ids.get(review.candidate_id), "created_at": review.created_at}


def _unresolved(user_id: str) -> Iterator[dict]:
    references = UnresolvedReference.objects.filter(user_id=user_id).order_by("pk")
    for reference in references.iterator(chunk_size=CHUNK):
        yield {"session_id": reference.session_id, "mention": reference.mention, "reason": reference.reason,
               "created_at": reference.created_at}


MEMORY_FIELDS = (
    "session_id", "scope", "type", "content", "domain", "sensitive", "confidence", "importance", "occurrences",
    "half_life_days", "valid_from", "valid_to", "last_reinforced_at", "created_at", "source",
    "source_message_ids", "pinned", "needs_review", "review_reason", "reviewed_at", "status", "expired_at",
    "attribute", "details",
)


def _memories(user_id: str, entity_ids: dict, memory_ids: set) -> Iterator[dict]:
    memories = (Memory.objects.for_user(user_id).without_vectors().order_by("pk")
                .prefetch_related(Prefetch("memoryentity_set", MemoryEntity.objects.order_by("pk")), "history"))
    for memory in memories.iterator(chunk_size=CHUNK):
        if memory.pk not in memory_ids:  # made since the export began
            continue
        yield {
            "id": memory.pk, **{name: getattr(memory, name) for name in MEMORY_FIELDS},
            "superseded_by": memory.superseded_by_id if memory.superseded_by_id in memory_ids else None,
            "subject": entity_ids.get(memory.subject_id),
            "entities": [{"entity": entity_ids[link.entity_id], "role": link.role}
                         for link in memory.memoryentity_set.all() if link.entity_id in entity_ids],
            "history": [{"action": h.action, "session_id": h.session_id, "at": h.at,
                         "related_memory_id": h.related_memory_id if h.related_memory_id in memory_ids else None}
                        for h in memory.history.all()],
        }


def _source_messages(user_id: str) -> Iterator[dict]:
    for message in SourceMessage.objects.filter(user_id=user_id).order_by("pk").iterator(chunk_size=CHUNK):
        yield {"message_id": message.message_id, "session_id": message.session_id, "speaker": message.speaker,
               "text": message.text, "at": message.at}


def _audit_events(user_id: str) -> Iterator[dict]:
    for event in AuditEvent.objects.filter(user_id=user_id).order_by("pk").iterator(chunk_size=CHUNK):
        yield {"id": event.pk, "action": event.action, "target_ids": event.target_ids, "counts": event.counts,
               "created_at": event.created_at}
