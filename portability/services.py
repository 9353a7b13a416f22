"""Loading an export document (portability/document.py) into a user id: `data_import`.

One transaction under the user's write lock; the document was validated whole before (a bad
one writes nothing). Idempotent: each row is matched against what the user already has — an
entity by normalized name and kind (the user's own entity by kind), a memory by content, type
and session, the rest by all their fields — and only what is missing is added, so importing a
file twice adds nothing the second time. Entities and memories get new ids, and every link is
re-mapped to them. Memories are written by `memory_create`, which enqueues their embeddings;
their history is the document's. Audit events in the document are not imported: they record
what was done elsewhere; the import writes its own audit row.
"""
from django.db import transaction
from django.db.models import Q

from audit.labels import AuditAction
from audit.services import audit_record
from entities.models import (
    Alias,
    Entity,
    EntityKind,
    EntityMention,
    EntityReview,
    Relation,
    RelationStatus,
    UnresolvedReference,
)
from entities.names import normalize_name
from entities.services import self_entity
from memories.embedding_jobs import embedding_jobs_coalesced
from memories.models import Memory, MemoryHistory, SourceMessage
from memories.services import memory_create, profile_get, source_message_record
from portability.selectors import MEMORY_FIELDS
from recall_site.locks import user_write_lock

PROFILE_FIELDS = ("name", "preferences", "favorites", "assistant_name")


def data_import(*, user_id: str, document: dict, actor: str) -> dict:
    """Add what the validated `document` holds and `user_id` lacks; the counts of rows added per kind."""
    with embedding_jobs_coalesced():  # one embedding job for all the new memories, after commit
        return _import(user_id, document, actor)


@transaction.atomic
def _import(user_id: str, document: dict, actor: str) -> dict:
    user_write_lock(user_id)
    added = {"profile": _profile_load(user_id, document["profile"])}
    entities = {}
    added["entities"] = sum(_entity_load(user_id, row, entities) for row in document["entities"])
    added["aliases"] = sum(_aliases_load(entities[row["id"]], row["aliases"]) for row in document["entities"])
    added["mentions"] = sum(_mentions_load(entities[row["id"]], row["mentions"]) for row in document["entities"])
    added["relations"] = sum(_relation_load(user_id, row, entities) for row in document["relations"])
    added["entity_reviews"] = sum(_review_load(user_id, row, entities) for row in document["entity_reviews"])
    added["unresolved_references"] = sum(_unresolved_load(user_id, row) for row in document["unresolved_references"])
    added["memories"] = _memories_load(user_id, document["memories"], entities)
    added["source_messages"] = _source_messages_load(user_id, document["source_messages"])
    event = audit_record(actor=actor, action=AuditAction.DATA_IMPORT, user_id=user_id, counts=added,
                         target_ids={"source_user_id": document["user_id"]})
    return {"user_id": user_id, "added": added, "audit_event_id": event.pk}


def _profile_load(user_id: str, values: dict) -> int:
    """The document's profile replaces the user's; 1 when that changed anything."""
    profile = profile_get(user_id)
    if all(getattr(profile, name) == values[name] for name in PROFILE_FIELDS):
        return 0
    for name in PROFILE_FIELDS:
        setattr(profile, name, values[name])
    profile.full_clean()
    profile.save()
    return 1


def _entity_load(user_id: str, row: dict, entities: dict) -> int:
    """Map the row's id to the user's entity of that name and kind, made when missing (1 if made).

    Made directly, not by `entity_create`: that adds the name as an alias, and the document
    says which aliases the entity has (a completed name, "Sarah Chen", is often not one)."""
    if row["kind"] == EntityKind.SELF:
        existing = Entity.objects.live().filter(user_id=user_id, kind=EntityKind.SELF).first()
        entities[row["id"]] = existing or self_entity(user_id)
    else:
        normalized = normalize_name(row["name"])
        existing = Entity.objects.live().filter(user_id=user_id, kind=row["kind"], normalized_name=normalized).first()
        entities[row["id"]] = existing or Entity.objects.create(
            user_id=user_id, kind=row["kind"], canonical_name=row["name"].strip(), normalized_name=normalized)
    if existing:
        return 0
    Entity.objects.filter(pk=entities[row["id"]].pk).update(
        created_at=row["created_at"], last_mentioned_at=row["last_mentioned_at"], drift_flagged=row["drift_flagged"])
    return 1


def _aliases_load(entity: Entity, rows: list[dict]) -> int:
    """Aliases the entity lacks (by normalized form), with the document's origin and time."""
    made = 0
    for row in rows:
        _, created = Alias.objects.get_or_create(
            entity=entity, normalized=normalize_name(row["alias"]),
            defaults={"user_id": entity.user_id, "alias": row["alias"].strip(), "origin": row["origin"],
                      "created_at": row["created_at"]})
        made += created
    return made


def _mentions_load(entity: Entity, rows: list[dict]) -> int:
    have = set(EntityMention.objects.filter(entity=entity).values_list("session_id", "mentioned_at",
                                                                       "source_message_id"))
    new = [row for row in rows if (row["session_id"], row["mentioned_at"], row["source_message_id"]) not in have]
    EntityMention.objects.bulk_create(EntityMention(user_id=entity.user_id, entity=entity, **row) for row in new)
    return len(new)


def _relation_load(user_id: str, row: dict, entities: dict) -> int:
    """A relation unless the same edge is there: active, or with this status and creation time."""
    subject, object = entities[row["subject"]], entities[row["object"]]
    same = Relation.objects.filter(subject=subject, predicate=row["predicate"], object=object)
    if same.filter(Q(status=RelationStatus.ACTIVE) | Q(created_at=row["created_at"]), status=row["status"]).exists():
        return 0
    Relation.objects.create(user_id=user_id, **{**row, "subject": subject, "object": object})
    return 1


def _review_load(user_id: str, row: dict, entities: dict) -> int:
    """An open review unless the same question is open already."""
    fields = {"user_id": user_id, "kind": row["kind"], "entity": entities[row["entity"]],
              "candidate": entities.get(row["candidate"])}
    if EntityReview.objects.filter(**fields, resolved_at__isnull=True).exists():
        return 0
    EntityReview.objects.create(**fields, created_at=row["created_at"])
    return 1


def _unresolved_load(user_id: str, row: dict) -> int:
    if UnresolvedReference.objects.filter(user_id=user_id, **row).exists():
        return 0
    UnresolvedReference.objects.create(user_id=user_id, **row)
    return 1


def _memories_load(user_id: str, rows: list[dict], entities: dict) -> int:
    """New memories (by content, type and session), then their supersessions and history, re-mapped."""
    have = {(content, type, session_id): pk for content, type, session_id, pk
            in Memory.objects.for_user(user_id).values_list("content", "type", "session_id", "pk")}
    ids, made = {}, []
    for row in rows:
        key = (row["content"].strip(), row["type"], row["session_id"])
        if key in have:
            ids[row["id"]] = have[key]
            continue
        memory = _memory_create(user_id, row, entities)
        ids[row["id"]] = have[key] = memory.pk
        made.append((memory, row))
    for memory, row in made:
        if row["superseded_by"] is not None:
            Memory.objects.filter(pk=memory.pk).update(superseded_by=ids[row["superseded_by"]])
        _history_replace(memory, row["history"], ids)
    return len(made)


def _memory_create(user_id: str, row: dict, entities: dict) -> Memory:
    fields = {name: row[name] for name in MEMORY_FIELDS if name not in ("session_id", "type", "content")}
    links = [(entities[link["entity"]], link["role"]) for link in row["entities"]]
    return memory_create(user_id=user_id, session_id=row["session_id"], type=row["type"], content=row["content"],
                         entities=links, subject=entities.get(row["subject"]), **fields)


def _history_replace(memory: Memory, rows: list[dict], ids: dict) -> None:
    """The document's history stands in for the "created" row `memory_create` wrote."""
    MemoryHistory.objects.filter(memory=memory).delete()
    MemoryHistory.objects.bulk_create(
        MemoryHistory(user_id=memory.user_id, memory=memory, action=row["action"], session_id=row["session_id"],
                      related_memory_id=ids.get(row["related_memory_id"]), at=row["at"])
        for row in rows)


def _source_messages_load(user_id: str, rows: list[dict]) -> int:
    """Message texts the user lacks (by message id; the first text of an id wins, as on ingest)."""
    have = set(SourceMessage.objects.filter(user_id=user_id).values_list("message_id", flat=True))
    new = {}
    for row in rows:
        if row["message_id"] not in have:
            new.setdefault(row["message_id"], row)
    for row in new.values():
        source_message_record(user_id=user_id, **row)
    return len(new)
