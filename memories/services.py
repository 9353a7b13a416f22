"""State changes on memories and profiles. Each runs in a transaction and writes its audit row.

The write pipeline's steps (`memory_create`, `memory_reinforce`, `memory_supersede`,
`history_record`, `source_message_record`) are hand-written SQL, each change and its
history row in one statement: the pipeline makes them for nearly every message, and
every round trip to PostgreSQL costs more than the statement itself.
"""
import re

from django.db import connection, transaction
from django.utils import timezone

from audit.labels import AuditAction
from audit.services import audit_record
from entities.models import Entity, EntityKind, Relation, RelationStatus
from memories.decay import half_life_for, memory_freshness
from memories.embedding_jobs import enqueue_embedding
from memories.inherited_vectors import inherited_vectors_dropped, vectors_inherited
from memories.models import (
    EmbeddingStatus,
    HistoryAction,
    Memory,
    MemoryEntity,
    MemoryHistory,
    SourceMessage,
    Status,
    UserProfile,
)
from recall_site.config import recall_setting
from recall_site.locks import user_write_lock
from recall_site.purging import PurgePlan, purge
from recall_site.telemetry import FORGET_REQUESTS

MAX_CONFIDENCE = 0.99
EDITABLE_FIELDS = (
    "content", "type", "domain", "sensitive", "confidence", "importance", "pinned", "needs_review",
    "scope", "valid_from", "valid_to", "attribute",
)


_HISTORY_COLUMNS = "(user_id, memory_id, action, session_id, related_memory_id, at)"


def history_record(memory: Memory, action: str, *, session_id: str = "", related_memory_id=None) -> None:
    sql = f"INSERT INTO {MemoryHistory._meta.db_table} {_HISTORY_COLUMNS} VALUES (%s, %s, %s, %s, %s, %s)"
    with connection.cursor() as cursor:
        cursor.execute(sql, [memory.user_id, memory.pk, action, session_id or "", related_memory_id, timezone.now()])


def _update_with_history(assignments: str, params: list, *, memory: Memory, action: str, session_id: str = "",
                         related_memory_id=None) -> bool:
    """`UPDATE memory SET <assignments>` and its history row in one statement; False when the memory is gone.
    By user and id: PostgreSQL then plans and reads the user's partition alone (memories/partitions.py)."""
    sql = (f"WITH changed AS (UPDATE {Memory._meta.db_table} SET {assignments} WHERE user_id = %s AND id = %s"
           " RETURNING id, user_id)"
           f" INSERT INTO {MemoryHistory._meta.db_table} {_HISTORY_COLUMNS}"
           " SELECT user_id, id, %s, %s, %s, %s FROM changed RETURNING memory_id")
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, memory.user_id, memory.pk, action, session_id or "", related_memory_id,
                             timezone.now()])
        return cursor.fetchone() is not None


_SOURCE_MESSAGE_FIELDS = ("user_id", "session_id", "message_id", "speaker", "text", "at")
_SOURCE_MESSAGE_INSERT = (
    f"INSERT INTO {SourceMessage._meta.db_table} ({', '.join(_SOURCE_MESSAGE_FIELDS)})"
    f" VALUES ({', '.join(['%s'] * len(_SOURCE_MESSAGE_FIELDS))}) ON CONFLICT (user_id, message_id) DO NOTHING")


def source_message_record(*, user_id: str, session_id: str, message_id: str, speaker: str, text: str, at) -> None:
    """Keep the words of a message that yielded a memory, once per (user, message id): the first text wins."""
    with connection.cursor() as cursor:
        cursor.execute(_SOURCE_MESSAGE_INSERT, [user_id, session_id, message_id, speaker, text, at])


# No savepoint inside a caller's transaction (two round trips per memory): no caller recovers from a failed
# memory_create and carries on in the same transaction; each rolls back whole.
@transaction.atomic(savepoint=False)
def memory_create(*, user_id: str, session_id: str, type: str, content: str, entities=(),
                  expire_if_faded: bool = False, source_message: dict | None = None, **fields) -> Memory:
    """Write one memory row, link its entities and enqueue its embedding.

    With `expire_if_faded`, a memory whose own date already puts it below the retrieval floor (a message from
    a transcript years old) is written expired: kept for the recovery window like any expired memory, and the
    trace counts it, so an import of old conversations does not look like a success that search then cannot
    find. `source_message` (`source_message_record`'s fields) keeps the words it came from in the same
    statement."""
    fields.setdefault("half_life_days", half_life_for(type, fields.get("domain", "personal")))
    memory = Memory(user_id=user_id, session_id=session_id, type=type, content=content.strip(), **fields)
    now = timezone.now()
    if (expire_if_faded and memory.status == Status.ACTIVE and not memory.pinned
            and memory_freshness(memory, now) < recall_setting("decay.retrieval_floor")):
        memory.status, memory.expired_at = Status.EXPIRED, now
    # PostgreSQL enforces the check constraints; validating them here costs extra queries.
    memory.full_clean(exclude=["search_vector", "embedding", "superseded_by", "subject"], validate_constraints=False)
    _insert_with_links(memory, list(_roles(entities)), session_id, now, source_message)
    enqueue_embedding([memory.pk])
    return memory


def _roles(entities):
    for item in entities:
        yield item if isinstance(item, tuple) else (item, "mention")


_INSERTED_FIELDS = [f for f in Memory._meta.concrete_fields if not f.primary_key and not f.generated]


def _insert_with_links(memory: Memory, links: list[tuple], session_id: str, now, source_message) -> None:
    """The memory row, one MemoryEntity row per (entity, role) (an entity linked twice keeps its first row),
    the `created` history row (and `expired`, for one written expired) and the source message, in one
    statement."""
    actions = [HistoryAction.CREATED] + ([HistoryAction.EXPIRED] if memory.status == Status.EXPIRED else [])
    columns = ", ".join(f.column for f in _INSERTED_FIELDS)
    sql = (f"WITH new AS (INSERT INTO {Memory._meta.db_table} ({columns})"
           f" VALUES ({', '.join(['%s'] * len(_INSERTED_FIELDS))}) RETURNING id, user_id),"
           f" links AS (INSERT INTO {MemoryEntity._meta.db_table} (user_id, memory_id, entity_id, role)"
           " SELECT new.user_id, new.id, link.* FROM new, unnest(%s::bigint[], %s::varchar[]) AS link"
           " ON CONFLICT DO NOTHING),"
           f" history AS (INSERT INTO {MemoryHistory._meta.db_table}"
           " (user_id, memory_id, action, session_id, related_memory_id, at)"
           " SELECT new.user_id, new.id, action, %s, NULL, %s FROM new, unnest(%s::varchar[]) AS action)")
    params = [f.get_db_prep_save(f.pre_save(memory, True), connection) for f in _INSERTED_FIELDS]
    params += [[entity.pk for entity, _ in links], [role for _, role in links], session_id or "", now, actions]
    if source_message:
        sql += f", source AS ({_SOURCE_MESSAGE_INSERT})"
        params += [memory.user_id if name == "user_id" else source_message[name] for name in _SOURCE_MESSAGE_FIELDS]
    with connection.cursor() as cursor:
        cursor.execute(sql + " SELECT id FROM new", params)
        memory.pk = cursor.fetchone()[0]
    memory._state.adding, memory._state.db = False, connection.alias  # as Model.save does


@transaction.atomic
def memory_update(*, memory: Memory, actor: str, **changes) -> Memory:
    unknown = set(changes) - set(EDITABLE_FIELDS)
    if unknown:
        raise ValueError(f"Cannot edit: {', '.join(sorted(unknown))}")
    content_changed = "content" in changes and changes["content"] != memory.content
    for name, value in changes.items():
        setattr(memory, name, value)
    if "type" in changes or "domain" in changes:
        memory.half_life_days = half_life_for(memory.type, memory.domain)
    if content_changed:
        memory.embedding = None
        memory.embedding_status = EmbeddingStatus.PENDING
        memory.sentences.filter(inherited_from__isnull=True).delete()
        inherited_vectors_dropped(memory.user_id, [memory.pk])  # re-inherited once it is embedded again
    # PostgreSQL enforces the check constraints; validating them here costs extra queries.
    memory.full_clean(exclude=["search_vector", "embedding", "superseded_by", "subject"], validate_constraints=False)
    memory.save()
    history_record(memory, HistoryAction.EDITED)
    audit_record(actor=actor, action=AuditAction.MEMORY_UPDATE, user_id=memory.user_id,
                 target_ids={"memory_ids": [memory.pk]}, counts={"fields": len(changes)})
    if content_changed:
        enqueue_embedding([memory.pk])
    return memory


def name_respelt(*, user_id: str, entity_id: int, wrong: str, right: str, actor: str) -> list[Memory]:
    """The typed memories linked to an entity that spell its name `wrong`, written with `right` instead (what the
    user said in their own words stays as said)."""
    spelt = re.compile(rf"\b{re.escape(wrong)}\b")
    linked = Memory.objects.filter(user_id=user_id, status=Status.ACTIVE, pk__in=MemoryEntity.objects.filter(
        user_id=user_id, entity_id=entity_id).values("memory_id")).exclude(type="event").without_vectors()
    return [memory_update(memory=memory, actor=actor, content=spelt.sub(right, memory.content))
            for memory in linked if spelt.search(memory.content)]


@transaction.atomic
def memory_forget(*, memory: Memory, actor: str, action: str = AuditAction.FORGET_MEMORY) -> dict:
    """Hard-delete one memory through the deletion engine (its links, history, injection records, queued
    embedding tasks). The audit row (forget_memory, or review_reject from the review queue) holds ids and
    counts only — no free text that could carry content."""
    user_write_lock(memory.user_id)
    counts = purge(PurgePlan(user_id=memory.user_id, memory_ids=[memory.pk]))
    kind = "memory" if action == AuditAction.FORGET_MEMORY else str(action)
    transaction.on_commit(lambda: FORGET_REQUESTS.labels(kind).inc())
    audit_record(actor=actor, action=action, user_id=memory.user_id,
                 target_ids={"memory_ids": [memory.pk]}, counts=counts)
    return counts


def profile_get(user_id: str) -> UserProfile:
    """Profiles are created lazily on first read."""
    profile, _ = UserProfile.objects.get_or_create(user_id=user_id)
    return profile


@transaction.atomic
def profile_update(*, user_id: str, actor: str, **changes) -> UserProfile:
    profile = UserProfile.objects.select_for_update().get(pk=profile_get(user_id).pk)
    for name, value in changes.items():
        setattr(profile, name, value)
    profile.full_clean()
    profile.save()
    audit_record(actor=actor, action=AuditAction.UPDATE_USER_PROFILE, user_id=user_id,
                 target_ids={"profile": user_id}, counts={"fields": len(changes)})
    return profile


# Write steps of the pipeline's persist stage (called inside its transaction, under the user's lock).

def memory_reinforce(*, memory: Memory, session_id: str, message_id: str = "", at=None) -> Memory | None:
    """The user said it again: occurrences + 1, confidence up (`memory.reinforce_confidence_step`, capped
    at 0.99), last_reinforced_at, history "reinforced". None when the memory is gone (forgotten since
    reconcile found it)."""
    step = recall_setting("memory.reinforce_confidence_step")
    ids = [message_id] if message_id and message_id not in memory.source_message_ids else []
    memory.confidence = min(round(memory.confidence + step, 4), MAX_CONFIDENCE)
    memory.last_reinforced_at = at or memory.last_reinforced_at
    memory.source_message_ids = memory.source_message_ids + ids
    updated = _update_with_history(
        "occurrences = occurrences + 1, confidence = %s, last_reinforced_at = %s, source_message_ids = %s",
        [memory.confidence, memory.last_reinforced_at, memory.source_message_ids],
        memory=memory, action=HistoryAction.REINFORCED, session_id=session_id)
    if not updated:
        return None
    memory.occurrences += 1
    return memory


def memory_supersede(*, old: Memory, new: Memory, at) -> None:
    """A new value for the same attribute retires the old one (status superseded, superseded_by, valid_to)."""
    _update_with_history("status = %s, superseded_by_id = %s, valid_to = %s", [Status.SUPERSEDED, new.pk, at],
                         memory=old, action=HistoryAction.SUPERSEDED, session_id=new.session_id,
                         related_memory_id=new.pk)
    vectors_inherited(new.user_id, [new.pk])  # what found the old value finds the new one


def relations_retire_stated_by(*, user_id: str, memory_ids: list[int], at) -> None:
    """The active edges that these relation memories stated (their predicate, between the entities they link)
    end with them: a superseded "Emma is the user's girlfriend" leaves no girlfriend edge. One statement."""
    memories, links = Memory._meta.db_table, MemoryEntity._meta.db_table
    sql = (f"UPDATE {Relation._meta.db_table} r SET status = %s, valid_to = %s FROM {memories} m"
           f" WHERE m.user_id = %s AND m.id = ANY(%s) AND m.type = 'relation' AND r.user_id = m.user_id"
           " AND r.status = %s AND r.predicate = m.details ->> 'predicate'"
           f" AND r.subject_id IN (SELECT entity_id FROM {links} WHERE memory_id = m.id AND user_id = m.user_id)"
           f" AND r.object_id IN (SELECT entity_id FROM {links} WHERE memory_id = m.id AND user_id = m.user_id)")
    with connection.cursor() as cursor:
        cursor.execute(sql, [RelationStatus.SUPERSEDED, at, user_id, memory_ids, RelationStatus.ACTIVE])


def memories_stating_the_old_value(*, superseded: list[Memory], new: Memory, takes_back: bool = False) -> list[int]:
    """Active memories said in the same message as a superseded one that still state its value: they name a
    person, place or thing it named that `new` does not, or a word of its that `new` does not say ("I live in
    Austin with my partner", kept as said beside "Lives in Austin", after "Lives in Seattle" superseded the fact).
    When `new` takes the old value back ("Broke up with Jake", "Not allergic to shellfish"), naming what it named
    is enough. They still tell more (with whom), so they stay; `memories_mark_updated` puts `new` before them."""
    messages = [(old.session_id, message_id) for old in superseded for message_id in old.source_message_ids]
    if not messages:
        return []
    memories, links, entities = Memory._meta.db_table, MemoryEntity._meta.db_table, Entity._meta.db_table
    with_entities = (f"SELECT m.id, m.content, ARRAY(SELECT link.entity_id FROM {links} link JOIN {entities} e"
                     f" ON e.id = link.entity_id AND e.kind <> %s WHERE link.memory_id = m.id) FROM {memories} m")
    old_ids = [old.pk for old in superseded]
    with connection.cursor() as cursor:
        cursor.execute(f"{with_entities} WHERE m.user_id = %s AND m.id = ANY(%s)",
                       [EntityKind.SELF, new.user_id, [*old_ids, new.pk]])
        stated = {pk: (content, set(entity_ids)) for pk, content, entity_ids in cursor.fetchall()}
        cursor.execute(f"{with_entities} JOIN unnest(%s::text[], %s::text[]) AS said(session_id, message_id)"
                       " ON m.session_id = said.session_id AND said.message_id = ANY(m.source_message_ids)"
                       " WHERE m.user_id = %s AND m.status = %s AND NOT (m.id = ANY(%s)) ORDER BY m.id",
                       [EntityKind.SELF, [session for session, _ in messages], [message for _, message in messages],
                        new.user_id, Status.ACTIVE, [*old_ids, new.pk]])
        siblings = cursor.fetchall()
    new_content, new_entities = stated.get(new.pk, (new.content, set()))
    old_entities = set().union(*(stated[pk][1] for pk in old_ids if pk in stated))
    old_words = set().union(*(_value_words(stated[pk][0]) for pk in old_ids if pk in stated))
    if not takes_back:
        old_entities -= new_entities
        old_words -= _value_words(new_content)
    return list(dict.fromkeys(pk for pk, content, entity_ids in siblings
                              if set(entity_ids) & old_entities or _value_words(content) & old_words))


_VALUE_WORD = re.compile(r"[a-z][a-z'’\-]{3,}")
_NOT_VALUE_WORDS = frozenset("user user's users with from that this have been about their there lives works".split())


def _value_words(content: str) -> set[str]:
    return {word for word in _VALUE_WORD.findall(content.lower()) if word not in _NOT_VALUE_WORDS}


def memories_mark_updated(*, memory_ids: list[int], by: Memory) -> None:
    """Name `by` in these memories' `details.updated_by`: a later value kept beside them (not sure enough to
    supersede, ingest/pipeline/value_updates.py), which search ranks before them."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {Memory._meta.db_table} SET details = jsonb_set(details, '{{updated_by}}', "
            "coalesce(details -> 'updated_by', '[]'::jsonb) || to_jsonb(%s::bigint)) "
            "WHERE id = ANY(%s) AND user_id = %s", [by.pk, memory_ids, by.user_id])


def pattern_update(*, memory: Memory, details: dict, confidence: float, promoted: bool, session_id: str,
                   message_id: str) -> Memory:
    """Another session showed the behaviour: raise confidence; leave review only once promoted."""
    memory.details = {**memory.details, **details}
    memory.occurrences = details["occurrences"]
    memory.confidence = max(memory.confidence, confidence)
    if promoted and memory.needs_review:
        memory.needs_review, memory.review_reason = False, ""
    if message_id and message_id not in memory.source_message_ids:
        memory.source_message_ids = memory.source_message_ids + [message_id]
    memory.save(update_fields=["details", "occurrences", "confidence", "needs_review", "review_reason",
                               "source_message_ids", "updated_at"])
    action = HistoryAction.REINFORCED if memory.needs_review else HistoryAction.PROMOTED
    history_record(memory, action, session_id=session_id)
    return memory


@transaction.atomic
def memory_pin(*, memory: Memory, actor: str, pinned: bool = True) -> Memory:
    """Pin (or unpin) a memory. Pinned, reviewed memories feed the startup digest."""
    memory.pinned = pinned
    memory.save(update_fields=["pinned", "updated_at"])
    history_record(memory, HistoryAction.PINNED if pinned else HistoryAction.UNPINNED)
    action = AuditAction.MEMORY_PIN if pinned else AuditAction.MEMORY_UNPIN
    audit_record(actor=actor, action=action, user_id=memory.user_id, target_ids={"memory_ids": [memory.pk]},
                 counts={"memories": 1})
    return memory
