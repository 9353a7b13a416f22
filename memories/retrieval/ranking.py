"""Fuse the retrievers' candidate lists and rank: relevance × freshness × importance.

Relevance is reciprocal-rank fusion (Σ 1 / (rrf_k + rank)) scaled to 0..1;
freshness is memories.decay.memory_freshness (confidence × 0.5^(age/half-life));
importance weighs in as floor + (1 − floor) × importance. Memories decayed below
the retrieval floor are dropped, near-duplicates of a better hit are suppressed,
and the caps (limit, max_memories, max_chars) are applied in rank order.
"""
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from rapidfuzz import fuzz

from entities.models import EntityKind
from memories.decay import memory_freshness
from memories.models import Memory, MemoryType
from recall_site.config import recall_setting


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


def rank_hits(memories: list[Memory], fused, hop_paths: dict[int, str], *, now: datetime, limit: int,
              max_chars: int, similarities: dict[int, float]) -> list[Hit]:
    floor = recall_setting("decay.retrieval_floor")
    hits = []
    for memory in memories:
        freshness = memory_freshness(memory, now, stale_person=_about_stale_person(memory, now))
        if freshness < floor:
            continue
        relevance, found = fused[memory.pk]
        score = relevance * freshness * _importance_weight(memory.importance)
        hit = Hit(memory, score, freshness, relevance, sorted(found, key=found.get), hop_paths.get(memory.pk, ""))
        hit.explanation = _explain(hit, found, similarities.get(memory.pk))
        hits.append(hit)
    hits.sort(key=lambda h: (-h.score, -h.memory.pk))
    return _capped(_without_near_duplicates(hits), limit=limit, max_chars=max_chars)


def _importance_weight(importance: float) -> float:
    floor = recall_setting("memory_retrieval.importance_floor")
    return floor + (1.0 - floor) * importance


def _about_stale_person(memory: Memory, now: datetime) -> bool:
    """Events tagged with a person not mentioned for `decay.stale_person_days` decay faster."""
    if memory.type != MemoryType.EVENT:
        return False
    cutoff = now - timedelta(days=recall_setting("decay.stale_person_days"))
    return any(
        entity.kind == EntityKind.PERSON and (entity.last_mentioned_at or entity.created_at) < cutoff
        for entity in memory.entities.all()
    )


def _without_near_duplicates(hits: list[Hit]) -> list[Hit]:
    threshold = recall_setting("memory_retrieval.near_duplicate_ratio")
    kept: list[Hit] = []
    for hit in hits:
        text = hit.memory.content.lower()
        if not any(fuzz.token_sort_ratio(text, other.memory.content.lower()) >= threshold for other in kept):
            kept.append(hit)
    return kept


def _capped(hits: list[Hit], *, limit: int, max_chars: int) -> list[Hit]:
    chosen, used = [], 0
    for hit in hits:
        if len(chosen) >= limit:
            break
        size = len(hit.memory.content)
        if used + size > max_chars:
            continue
        chosen.append(hit)
        used += size
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
