"""Fuse the retrievers' candidate lists and rank: relevance × freshness × importance.

Relevance is reciprocal-rank fusion (Σ 1 / (rrf_k + rank)) scaled to 0..1;
freshness is memories.decay.memory_freshness (confidence × 0.5^(age/half-life));
importance weighs in as floor + (1 − floor) × importance. Memories decayed below
the retrieval floor are dropped, near-duplicates of a better hit are suppressed,
and the caps (limit, max_memories, max_chars) are applied in rank order.
"""
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import NamedTuple

from django.db.models import Prefetch, Q
from rapidfuzz import fuzz

from entities.models import Entity, EntityKind
from memories.decay import memory_freshness
from memories.models import Memory, MemoryEntity, MemoryType
from recall_site.config import recall_setting

# What a hit shows of its entities (skips their centroid vectors).
ENTITY_REFS = Prefetch("entities", queryset=Entity.objects.only("id", "public_id", "canonical_name", "kind"))


@dataclass
class Hit:
    memory: Memory
    score: float
    freshness: float
    relevance: float
    retrievers: list[str] = field(default_factory=list)
    hop_path: str = ""
    explanation: str = ""


def fuse(candidates: dict[str, list[int]]) -> dict[int, tuple[float, dict[str, int]]]:
    """memory id → (relevance 0..1, {retriever: 1-based rank})."""
    k = recall_setting("memory_retrieval.rrf_k")
    active = [name for name, ids in candidates.items() if ids] or ["none"]
    best_possible = len(active) / (k + 1)
    ranks: dict[int, dict[str, int]] = {}
    for name, ids in candidates.items():
        for rank, memory_id in enumerate(ids, start=1):
            ranks.setdefault(memory_id, {})[name] = rank
    return {
        memory_id: (sum(1.0 / (k + rank) for rank in found.values()) / best_possible, found)
        for memory_id, found in ranks.items()
    }


class Candidate(NamedTuple):
    """The columns ranking needs; memory_freshness reads these attributes like a Memory's."""

    pk: int
    type: str
    content: str
    confidence: float
    importance: float
    half_life_days: float
    last_reinforced_at: datetime
    pinned: bool


def rank_hits(fused, hop_paths: dict[int, str], *, now: datetime, limit: int, max_chars: int,
              similarities: dict[int, float]) -> list[Hit]:
    """Score every fused candidate, keep the best within the caps, then load those memories in full."""
    floor = recall_setting("decay.retrieval_floor")
    candidates = [Candidate(*row) for row in Memory.objects.filter(pk__in=list(fused)).values_list(*Candidate._fields)]
    stale = _events_about_stale_people([c.pk for c in candidates if c.type == MemoryType.EVENT], now)
    hits = []
    for candidate in candidates:
        freshness = memory_freshness(candidate, now, stale_person=candidate.pk in stale)
        if freshness < floor:
            continue
        relevance, found = fused[candidate.pk]
        score = relevance * freshness * _importance_weight(candidate.importance)
        hits.append(Hit(candidate, score, freshness, relevance, sorted(found, key=found.get),
                        hop_paths.get(candidate.pk, "")))
    hits.sort(key=lambda h: (-h.score, -h.memory.pk))
    chosen = _capped(hits, limit=limit, max_chars=max_chars)
    full = Memory.objects.defer("embedding").prefetch_related(ENTITY_REFS).in_bulk([h.memory.pk for h in chosen])
    chosen = [hit for hit in chosen if hit.memory.pk in full]  # forgotten in the meantime: gone
    for hit in chosen:
        hit.memory = full[hit.memory.pk]
        hit.explanation = _explain(hit, fused[hit.memory.pk][1], similarities.get(hit.memory.pk))
    return chosen


def _importance_weight(importance: float) -> float:
    floor = recall_setting("memory_retrieval.importance_floor")
    return floor + (1.0 - floor) * importance


def _events_about_stale_people(event_ids: list[int], now: datetime) -> set[int]:
    """Events tagged with a person not mentioned for `decay.stale_person_days` decay faster."""
    if not event_ids:
        return set()
    cutoff = now - timedelta(days=recall_setting("decay.stale_person_days"))
    stale_person = Q(entity__last_mentioned_at__lt=cutoff) | Q(
        entity__last_mentioned_at__isnull=True, entity__created_at__lt=cutoff)
    links = MemoryEntity.objects.filter(stale_person, memory_id__in=event_ids, entity__kind=EntityKind.PERSON)
    return set(links.values_list("memory_id", flat=True))


def _capped(hits: list[Hit], *, limit: int, max_chars: int) -> list[Hit]:
    """Best first: skip near-duplicates of a kept hit and hits that would overflow max_chars."""
    threshold = recall_setting("memory_retrieval.near_duplicate_ratio")
    chosen, used = [], 0
    for hit in hits:
        if len(chosen) >= limit:
            break
        text = hit.memory.content.lower()
        if used + len(text) > max_chars or any(
                fuzz.token_sort_ratio(text, kept.memory.content.lower()) >= threshold for kept in chosen):
            continue
        chosen.append(hit)
        used += len(text)
    return chosen


def _explain(hit: Hit, found: dict[str, int], similarity: float | None) -> str:
    parts = []
    for name in hit.retrievers:
        detail = f"{name} #{found[name]}"
        if name == "semantic" and similarity is not None:
            detail += f" (cos {similarity:.2f})"
        if name == "graph" and hit.hop_path:
            detail += f" via {hit.hop_path}"
        parts.append(detail)
    return (f"found by {', '.join(parts)}; relevance {hit.relevance:.2f} × freshness {hit.freshness:.2f}"
            f" × importance {hit.memory.importance:.2f} → score {hit.score:.3f}")
