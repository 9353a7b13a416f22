"""Reads for the review queue and the dashboard, always scoped to one user id.

Each waiting memory says why it waits in words built from what it holds (its review reason, importance,
pattern sessions, the open name question it raises, the confidence bar it sits below), not a stock sentence.
"""
import re
from dataclasses import dataclass

from django.db.models import Count

from audit.models import AuditEvent
from entities.models import Entity, EntityKind, EntityReview, EntityReviewKind
from memories.models import Memory, MemoryType, Source, Status
from recall_site.config import recall_setting

_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class Ambiguity:
    """An open question whether a name means one person or another: ‘Sarah’ → Sarah Chen, Sarah Miller."""

    word: str
    names: tuple[str, str]
    review: EntityReview

    @property
    def people(self) -> tuple[Entity, Entity]:
        return self.review.entity, self.review.candidate


def ambiguities(user_id: str) -> list[Ambiguity]:
    """The open ambiguous-name questions, each with the name word its two entities share."""
    found = []
    reviews = open_entity_reviews(user_id).filter(kind=EntityReviewKind.AMBIGUOUS_MATCH,
                                                  candidate__deleted_at__isnull=True)
    for review in reviews:
        first, second = review.entity.canonical_name, review.candidate.canonical_name
        theirs = {word.casefold() for word in _WORD.findall(second)}
        shared = [word for word in _WORD.findall(first) if word.casefold() in theirs]
        if shared:
            found.append(Ambiguity(shared[0], (first, second), review))
    return found


def with_review_reasons(user_id: str, memories):
    """Set `reason_text` on each memory, and `ambiguity`: the open name question a reviewer can answer on it
    (one query for the open name questions); returns the memories."""
    known = ambiguities(user_id)
    for memory in memories:
        memory.reason_text = review_reason_text(memory, known)
        memory.ambiguity = ambiguity_of(memory, known) if memory.review_reason == "ambiguous_entity" else None
    return memories


def ambiguity_of(memory: Memory, known: list[Ambiguity]) -> Ambiguity | None:
    """The first open name question whose shared name the memory's words contain."""
    words = {word.casefold() for word in _WORD.findall(memory.content)}
    return next((ambiguity for ambiguity in known if ambiguity.word.casefold() in words), None)


def review_reason_text(memory: Memory, known: list[Ambiguity] = ()) -> str:
    """Why this memory waits, from what it holds: "auto-pinned: health fact, importance 0.90"."""
    gap = _confidence_gap(memory)
    reason = _REASONS.get(memory.review_reason, _flagged)(memory, known, gap)
    return f"{reason}; {gap}" if gap else reason


def _auto_memory(memory, _known, gap) -> str:
    said = f"auto memory: the assistant proposed it after session {memory.session_id}"
    return said if gap else f"{said}, confidence {memory.confidence:.2f}"


def _auto_pinned(memory, _known, _gap) -> str:
    return (f"auto-pinned: {memory.get_domain_display().lower()} {memory.get_type_display().lower()}, "
            f"importance {memory.importance:.2f}; out of the startup digest until you approve it")


def _inferred(memory, _known, _gap) -> str:
    sessions = memory.details.get("pattern_sessions") or []
    if sessions:
        count = f"{len(sessions)} session{'' if len(sessions) == 1 else 's'}"
        return f"inferred from {count} ({', '.join(sessions)}): a pattern in what you did, not something you said"
    said = memory.details.get("text")
    return f"inferred from “{said}”: a guess, not something you said" if said else \
        "inferred: a guess, not something you said"


def _ambiguous(memory, known, _gap) -> str:
    ambiguity = ambiguity_of(memory, known)
    if ambiguity:
        return f"ambiguous: ‘{ambiguity.word}’ could be {ambiguity.names[0]} or {ambiguity.names[1]}"
    return "ambiguous: a name in it could mean more than one person"


def _flagged(memory, _known, gap) -> str:
    said = f"flagged for review: {memory.get_source_display()} memory"
    return said if gap else f"{said}, confidence {memory.confidence:.2f}"


_REASONS = {"auto_memory": _auto_memory, "auto_pinned": _auto_pinned, "inferred": _inferred,
            "ambiguous_entity": _ambiguous}


def _confidence_gap(memory: Memory) -> str:
    """"confidence 0.55 below the 0.80 a sensitive memory needs to surface", or "" above every bar it faces."""
    bars = [
        (memory.sensitive, "gating.sensitive_min_confidence", "a sensitive memory needs to surface"),
        (memory.source == Source.AUTO_REFLECTION, "memory.auto_memory_min_confidence", "the auto-memory bar"),
        (bool(memory.details.get("pattern_key")), "memory.pattern_promote_confidence",
         "that promotes a pattern on its own"),
        (True, "gating.default_min_confidence", "search needs"),
    ]
    for applies, key, words in bars:
        bar = recall_setting(key)
        if applies and memory.confidence < bar:
            return f"confidence {memory.confidence:.2f} below {_bar_words(bar, words)}"
    return ""


def _bar_words(bar: float, words: str) -> str:
    return f"{words} ({bar:.2f})" if words.startswith("the ") else f"the {bar:.2f} {words}"


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


def known_entity_count(user_id: str) -> int:
    """People, places and organisations on record (the user's own node not counted)."""
    return Entity.objects.live().for_user(user_id).exclude(kind=EntityKind.SELF).count()


def pinned_count(user_id: str) -> int:
    return Memory.objects.for_user(user_id).filter(pinned=True).count()


def drifted_entities(user_id: str):
    return Entity.objects.live().for_user(user_id).filter(drift_flagged=True).order_by("canonical_name")


def recent_memories(user_id: str, limit: int = 6):
    return Memory.objects.for_user(user_id).order_by("-created_at", "-id")[:limit]


def recent_audit_events(user_id: str, limit: int = 8):
    return AuditEvent.objects.filter(user_id=user_id)[:limit]
