"""Expiry: memories whose freshness fell below the retrieval floor stop being retrieved, can be
restored for `decay.expired_retention_days`, then are purged. Pinned memories never expire."""
from datetime import datetime, timedelta

from django.db import connection, transaction
from django.utils import timezone

from audit.labels import AuditAction
from audit.services import audit_record
from memories.decay import memory_freshness, stale_person_memory_ids
from memories.models import HistoryAction, Memory, MemoryHistory, MemoryType, Status
from recall_site.config import recall_setting
from recall_site.locks import user_write_lock
from recall_site.purging import PurgePlan, purge

FRESHNESS_FIELDS = ("pk", "user_id", "type", "confidence", "half_life_days", "last_reinforced_at", "valid_from",
                    "pinned")
SYSTEM_ACTOR = "system"


class MemoryNotExpiredError(ValueError):
    """Only expired memories can be restored."""


def expire_memories(now: datetime | None = None) -> int:
    """Mark active, unpinned memories below the retrieval floor expired. Returns how many this run expired."""
    now = now or timezone.now()
    floor = recall_setting("decay.retrieval_floor")
    candidates = Memory.objects.filter(status=Status.ACTIVE, pinned=False)
    stale = stale_person_memory_ids(candidates.filter(type=MemoryType.EVENT).values("pk"), now)
    below = [
        memory.pk for memory in candidates.only(*FRESHNESS_FIELDS).iterator(chunk_size=2000)
        if memory_freshness(memory, now, stale_person=memory.pk in stale) < floor
    ]
    return len(memories_mark_expired(below, now))


@transaction.atomic
def memories_mark_expired(memory_ids: list[int], now: datetime) -> list[tuple[int, str]]:
    """Expire active, unpinned memories: claim rows with a conditional update (a concurrent run claims each row
    once) and record history. Returns the (id, user_id) claimed."""
    if not memory_ids:
        return []
    # One statement: the claim and its history rows (a new memory expired on arrival pays one round trip).
    with connection.cursor() as cursor:
        cursor.execute(
            f'WITH claimed AS (UPDATE "{Memory._meta.db_table}" SET status = %s, expired_at = %s '
            "WHERE id = ANY(%s) AND status = %s AND NOT pinned RETURNING id, user_id) "
            f"INSERT INTO {MemoryHistory._meta.db_table} (user_id, memory_id, action, session_id, at) "
            "SELECT user_id, id, %s, '', %s FROM claimed RETURNING memory_id, user_id",
            [Status.EXPIRED, now, memory_ids, Status.ACTIVE, HistoryAction.EXPIRED, now],
        )
        claimed = cursor.fetchall()
    return claimed


def purge_expired(now: datetime | None = None) -> dict:
    """Hard-delete memories expired longer than the recovery window; one counts-only audit event per user."""
    now = now or timezone.now()
    cutoff = now - timedelta(days=recall_setting("decay.expired_retention_days"))
    due = Memory.objects.filter(status=Status.EXPIRED, expired_at__lt=cutoff)
    purged = {}
    for user_id in due.values_list("user_id", flat=True).distinct().order_by("user_id"):
        with transaction.atomic():
            user_write_lock(user_id)
            ids = list(due.filter(user_id=user_id).select_for_update(skip_locked=True).values_list("pk", flat=True))
            if not ids:
                continue
            counts = purge(PurgePlan(user_id=user_id, memory_ids=ids))
            audit_record(actor=SYSTEM_ACTOR, action=AuditAction.PURGE_EXPIRED, user_id=user_id, counts=counts)
        purged[user_id] = counts["memories"]
    return purged


@transaction.atomic
def memory_restore(*, memory: Memory, actor: str) -> Memory:
    """Bring an expired memory back: active again, fresh from now."""
    restored = Memory.objects.filter(pk=memory.pk, status=Status.EXPIRED).update(
        status=Status.ACTIVE, expired_at=None, last_reinforced_at=timezone.now())
    if not restored:
        raise MemoryNotExpiredError("Only expired memories can be restored.")
    MemoryHistory.objects.create(user_id=memory.user_id, memory=memory, action=HistoryAction.RESTORED)
    audit_record(actor=actor, action=AuditAction.MEMORY_RESTORE, user_id=memory.user_id,
                 target_ids={"memory_ids": [memory.pk]})
    memory.refresh_from_db()
    return memory

