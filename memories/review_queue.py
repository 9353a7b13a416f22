"""Reads for the review queue and the dashboard, always scoped to one user id."""
from django.db.models import Count

from audit.models import AuditEvent
from entities.models import Entity, EntityReview
from memories.models import Memory, MemoryType, Status

# Why an item is in the queue, in words a user understands.
REVIEW_REASONS = {
    "auto_memory": "The assistant proposed this after a conversation; it waits for your confirmation.",
    "auto_pinned": "Marked important enough to pin automatically; it stays out of the startup digest until you approve it.",
    "inferred": "Guessed from a pattern in your behaviour, not something you said. Confirm only if it is true.",
}
DEFAULT_REVIEW_REASON = "Flagged for your confirmation before the assistant relies on it."


def review_reason_text(memory: Memory) -> str:
    return REVIEW_REASONS.get(memory.review_reason, DEFAULT_REVIEW_REASON)


def memories_needing_review(user_id: str):
    return (Memory.objects.for_user(user_id).filter(needs_review=True)
            .prefetch_related("entities").order_by("-created_at", "-id"))


def open_entity_reviews(user_id: str):
    return (EntityReview.objects.filter(user_id=user_id, resolved_at__isnull=True,
                                        entity__deleted_at__isnull=True)
            .select_related("entity", "candidate").order_by("-created_at", "-id"))


def review_count(user_id: str) -> int:
    return memories_needing_review(user_id).count() + open_entity_reviews(user_id).count()


def memory_counts(user_id: str) -> dict:
    """Memory counts by type (rows) and status (columns), with totals."""
    rows = (Memory.objects.for_user(user_id).values("type", "status")
            .annotate(n=Count("id")).order_by())
    table = {t: {s: 0 for s in Status.values} for t in MemoryType.values}
    for row in rows:
        table[row["type"]][row["status"]] = row["n"]
    by_type = [
        {"type": t, "label": MemoryType(t).label, "counts": [table[t][s] for s in Status.values],
         "total": sum(table[t].values())}
        for t in MemoryType.values
    ]
    status_totals = [sum(table[t][s] for t in MemoryType.values) for s in Status.values]
    return {"statuses": Status.labels, "by_type": by_type, "status_totals": status_totals,
            "total": sum(status_totals)}


def drifted_entities(user_id: str):
    return Entity.objects.live().for_user(user_id).filter(drift_flagged=True).order_by("canonical_name")


def recent_memories(user_id: str, limit: int = 6):
    return Memory.objects.for_user(user_id).order_by("-created_at", "-id")[:limit]


def recent_audit_events(user_id: str, limit: int = 8):
    return AuditEvent.objects.filter(user_id=user_id)[:limit]
