"""Freshness: confidence × 0.5^(age / half-life). The one place decay is computed.

Freshness weights ranking and drives expiry; it never changes `confidence`,
which is what gates sensitive memories.
"""
from datetime import datetime, timedelta

from django.db.models import Q

from entities.models import EntityKind
from memories.models import MemoryEntity, MemoryType
from recall_site.config import recall_setting


def half_life_for(memory_type: str, domain: str) -> float:
    decay = recall_setting("decay")
    if memory_type == "fact" and domain == "health":
        return float(decay["health_fact_half_life_days"])
    if memory_type == "fact" and domain == "professional":
        return float(decay["professional_fact_half_life_days"])
    return float(decay["half_life_days"][memory_type])


def freshness(*, confidence: float, half_life_days: float, last_reinforced_at: datetime, now: datetime,
              pinned: bool = False, stale_person: bool = False, event_at: datetime | None = None) -> float:
    """Decayed score in 0..1. Pinned memories do not decay; a dated event ages from its own date when that
    is later than its last reinforcement (an appointment next Thursday is fresh until then); events about a
    person not mentioned for `decay.stale_person_days` decay `stale_person_decay_multiplier` times faster."""
    if pinned:
        return confidence
    since = max(last_reinforced_at, event_at) if event_at else last_reinforced_at
    age_days = max((now - since).total_seconds() / 86400.0, 0.0)
    half_life = max(half_life_days, 0.001)
    if stale_person:
        half_life /= float(recall_setting("decay.stale_person_decay_multiplier"))
    return confidence * 0.5 ** (age_days / half_life)


def memory_freshness(memory, now: datetime, stale_person: bool = False) -> float:
    return freshness(
        confidence=memory.confidence,
        half_life_days=memory.half_life_days,
        last_reinforced_at=memory.last_reinforced_at,
        now=now,
        pinned=memory.pinned,
        stale_person=stale_person,
        event_at=memory.valid_from if memory.type == MemoryType.EVENT else None,
    )


def stale_person_memory_ids(memory_ids, now: datetime) -> set[int]:
    """Of these memories (ids or a pk queryset), the events tagged with a person not mentioned for
    `decay.stale_person_days` (never mentioned counts from the person's creation). They decay 2× faster."""
    cutoff = now - timedelta(days=recall_setting("decay.stale_person_days"))
    return set(
        MemoryEntity.objects.filter(
            memory_id__in=memory_ids, memory__type=MemoryType.EVENT,
            entity__kind=EntityKind.PERSON, entity__deleted_at__isnull=True,
        ).filter(
            Q(entity__last_mentioned_at__lt=cutoff)
            | Q(entity__last_mentioned_at__isnull=True, entity__created_at__lt=cutoff)
        ).values_list("memory_id", flat=True)
    )
