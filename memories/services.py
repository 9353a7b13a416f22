"""State changes on memories and profiles. Each runs in a transaction and writes its audit row.

`history_record` and `memory_create`'s entity links are written with hand-written
SQL: the write pipeline adds them for nearly every message, and the ORM's save and
bulk_create paths cost more than the INSERTs themselves.
"""
from django.db import connection, transaction
from django.utils import timezone

from audit.services import audit_record
from memories.decay import half_life_for
from memories.models import EmbeddingStatus, Memory, MemoryEntity, MemoryHistory, UserProfile
from memories.tasks import enqueue_embedding
from recall_site.locks import user_write_lock
from recall_site.purging import PurgePlan, purge

EDITABLE_FIELDS = (
    "content", "type", "domain", "sensitive", "confidence", "importance", "pinned", "needs_review",
    "scope", "valid_from", "valid_to", "attribute",
)


def history_record(memory: Memory, action: str, *, session_id: str = "", related_memory_id=None) -> None:
    sql = (f"INSERT INTO {MemoryHistory._meta.db_table} (user_id, memory_id, action, session_id, related_memory_id, at)"
           " VALUES (%s, %s, %s, %s, %s, %s)")
    with connection.cursor() as cursor:
        cursor.execute(sql, [memory.user_id, memory.pk, action, session_id or "", related_memory_id, timezone.now()])


# No savepoint inside a caller's transaction (two round trips per memory): no caller recovers from a failed
# memory_create and carries on in the same transaction; each rolls back whole.
@transaction.atomic(savepoint=False)
def memory_create(*, user_id: str, session_id: str, type: str, content: str, entities=(), **fields) -> Memory:
    """Write one memory row, link its entities and enqueue its embedding."""
    fields.setdefault("half_life_days", half_life_for(type, fields.get("domain", "personal")))
    memory = Memory(user_id=user_id, session_id=session_id, type=type, content=content.strip(), **fields)
    # PostgreSQL enforces the check constraints; validating them here costs extra queries.
    memory.full_clean(exclude=["search_vector", "embedding", "superseded_by", "subject"], validate_constraints=False)
    memory.save()
    _link_entities(memory, list(_roles(entities)))
    history_record(memory, "created", session_id=session_id)
    enqueue_embedding([memory.pk])
    return memory


def _roles(entities):
    for item in entities:
        yield item if isinstance(item, tuple) else (item, "mention")


def _link_entities(memory: Memory, links: list[tuple]) -> None:
    """One MemoryEntity row per (entity, role), in one statement; an entity linked twice keeps its first row."""
    if not links:
        return
    sql = (f"INSERT INTO {MemoryEntity._meta.db_table} (user_id, memory_id, entity_id, role)"
           " SELECT %s, %s, * FROM unnest(%s::bigint[], %s::varchar[]) ON CONFLICT DO NOTHING")
    with connection.cursor() as cursor:
        cursor.execute(sql, [memory.user_id, memory.pk, [entity.pk for entity, _ in links],
                             [role for _, role in links]])


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
    # PostgreSQL enforces the check constraints; validating them here costs extra queries.
    memory.full_clean(exclude=["search_vector", "embedding", "superseded_by", "subject"], validate_constraints=False)
    memory.save()
    history_record(memory, "edited")
    audit_record(actor=actor, action="memory_update", user_id=memory.user_id,
                 target_ids={"memory_ids": [memory.pk]}, counts={"fields": len(changes)})
    if content_changed:
        enqueue_embedding([memory.pk])
    return memory


@transaction.atomic
def memory_forget(*, memory: Memory, actor: str, action: str = "forget_memory") -> dict:
    """Hard-delete one memory through the deletion engine (its links, history, injection records, queued
    embedding tasks). The audit row (forget_memory, or review_reject from the review queue) holds ids and
    counts only — no free text that could carry content."""
    user_write_lock(memory.user_id)
    counts = purge(PurgePlan(user_id=memory.user_id, memory_ids=[memory.pk]))
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
    audit_record(actor=actor, action="update_user_profile", user_id=user_id,
                 target_ids={"profile": user_id}, counts={"fields": len(changes)})
    return profile


