"""Rank the retrievers' candidates relevance first.

Relevance (0..1) is the weighted mean (`memory_retrieval.relevance_weights`) of a
candidate's cosine similarity to the query and its full-text match (the summed
rarity of the query's words it holds), each relative to the best candidate's, and
of what the graph adds (see `_relevance`). Reciprocal-rank fusion, used before,
scored a retriever's 1st and 10th candidates within 13 % of each other and let
agreement between retrievers outweigh a far closer match (docs/benchmarks.md has
what fusing the scores instead gained on real conversations).

Freshness (memories.decay.memory_freshness: confidence × 0.5^(age/half-life)) and
importance (floor + (1 − floor) × importance) then order memories of similar
relevance without burying the best match: an old memory ranks lower unless the
query closely matches it:

    score = relevance × (1 − w + w × freshness × importance)

with w = `memory_retrieval.freshness_weight` for an explicit question and the
larger `turn_freshness_weight` for proactive per-turn injection. A three-month-old
close match keeps at least 1 − w of its relevance, so a weak match must be far
fresher *and* nearly as relevant to pass it. Memories decayed below the retrieval
floor are dropped (expired), near-duplicates of a better hit are suppressed, and
the caps (limit, max_memories, max_chars) are applied in rank order. The limit is
filled when enough memories match: if their words together run over max_chars,
the longest are shortened to a common length (`Hit.content`, cut at a word,
"…"), never below MIN_SHORTENED_CHARS — below that the lowest-ranked are left out.
"""
import re
from dataclasses import dataclass, field
from datetime import datetime
from datetime import timezone as dt_timezone
from typing import NamedTuple

from django.db import connection
from rapidfuzz import fuzz, process

from memories.decay import memory_freshness
from memories.models import MEMORY_ROW_FIELDS, Memory
from memories.partitions import user_table
from recall_site.config import recall_setting
from recall_site.raw_models import columns, models_from_sql
from search.retrieval.gating import asks_what_the_assistant_said, asks_what_was_said_before

_WORDS = re.compile(r"\w+")
MIN_SHORTENED_CHARS = 160  # a memory cut shorter than this says too little to be worth its place

# What a hit shows of the entities it is linked to ([{id, name, kind}], the API's entity refs),
# per memory, for a list of memories in one query.
_LINKED_ENTITIES_SQL = """
SELECT link.memory_id,
       json_agg(json_build_object('id', entity.public_id, 'name', entity.canonical_name, 'kind', entity.kind)
                ORDER BY entity.id) AS entities
FROM memories_memoryentity link JOIN entities_entity entity ON entity.id = link.entity_id
WHERE link.memory_id = ANY(%(ids)s)
GROUP BY link.memory_id
"""


def attach_linked_entities(memories) -> None:
    """Set `memory.linked_entities` on each memory."""
    with connection.cursor() as cursor:
        cursor.execute(_LINKED_ENTITIES_SQL, {"ids": [memory.pk for memory in memories]})
        linked = dict(cursor.fetchall())
    for memory in memories:
        memory.linked_entities = linked.get(memory.pk, [])


@dataclass
class Hit:
    memory: Memory
    score: float
    freshness: float
    relevance: float
    retrievers: list[str] = field(default_factory=list)
    hop_path: str = ""
    explanation: str = ""
    content: str = ""  # the memory's words as returned: shortened when the hits' words exceed max_chars


def retriever_ranks(candidates: dict[str, list[int]]) -> dict[int, dict[str, int]]:
    """memory id → {retriever: 1-based rank in that retriever's list}."""
    ranks: dict[int, dict[str, int]] = {}
    for name, ids in candidates.items():
        for rank, memory_id in enumerate(ids, start=1):
            ranks.setdefault(memory_id, {})[name] = rank
    return ranks


class RankingRow(NamedTuple):
    """The columns ranking needs; memory_freshness reads these attributes like a Memory's."""

    pk: int
    content: str
    type: str
    confidence: float
    importance: float
    half_life_days: float
    reinforced_epoch: float
    valid_from_epoch: float | None
    pinned: bool
    stale_person: bool
    similarity: float | None  # cosine similarity to the query vector (None: no vector, or not embedded yet)
    lexical: float  # summed rarity of the query's lexemes it holds (retrieval.lexical.weighted_match)
    said_by_assistant: bool  # what the assistant said (pipeline/assistant_turns.py)
    about_person: bool  # linked to a person the query names
    updated_by: list[int] | None = None  # later memories kept beside it with a new value (value_updates.py)

    @property
    def last_reinforced_at(self) -> datetime:
        return _from_epoch(self.reinforced_epoch)

    @property
    def valid_from(self) -> datetime | None:
        return None if self.valid_from_epoch is None else _from_epoch(self.valid_from_epoch)


def _from_epoch(epoch: float) -> datetime:
    return datetime.fromtimestamp(epoch, tz=dt_timezone.utc)


# The winners in full, each with its linked entities, from the user's partition of the memories.
_WINNERS_SQL = f"""
SELECT {columns(MEMORY_ROW_FIELDS, "m")}, coalesce(linked.entities, '[]')
FROM {{table}} m LEFT JOIN ({_LINKED_ENTITIES_SQL}) AS linked ON linked.memory_id = m.id
WHERE m.user_id = %(user_id)s AND m.id = ANY(%(ids)s)
"""


def rank(candidates: dict[str, list[int]], rows: list[RankingRow], hop_paths: dict[int, str], *,
         now: datetime, limit: int, max_chars: int, graph_mentions=None, freshness_weight: float,
         query: str = "", people_named: bool = False) -> list[Hit]:
    """Score every candidate (`rows`: their ranking columns, candidates.py) and keep the best within the caps,
    each hit's `memory` still its RankingRow (`load_hits` loads them in full). No database: a function of the
    rows and the config. When the query names people (`people_named`), a memory linked to none of them
    weighs `memory_retrieval.others_weight` of its relevance (search/retrieval/unnamed.py says why)."""
    floor = recall_setting("decay.retrieval_floor")
    importance_floor = recall_setting("memory_retrieval.importance_floor")
    said_weight = _said_weights(query)
    others_weight = recall_setting("memory_retrieval.others_weight")
    asked_before = asks_what_was_said_before(query)
    ranks_of = retriever_ranks(candidates)
    relevance_of = _relevance(rows, graph_mentions=graph_mentions or {})
    hits = []
    for row in rows:
        freshness = memory_freshness(row, now, stale_person=row.stale_person)
        if freshness < floor:
            continue
        relevance = relevance_of(row) * said_weight[row.said_by_assistant]
        if people_named and not row.about_person and not (row.said_by_assistant and asked_before):
            # The assistant's reply names nobody: asked what it suggested for someone, its people are its question's.
            relevance *= others_weight
        standing = freshness * (importance_floor + (1.0 - importance_floor) * row.importance)
        score = relevance * (1.0 - freshness_weight + freshness_weight * standing)
        ranks = ranks_of[row.pk]
        hits.append(Hit(row, score, freshness, relevance, sorted(ranks, key=ranks.get), hop_paths.get(row.pk, "")))
    hits.sort(key=lambda h: (-h.score, -h.memory.pk))
    chosen = _capped(_later_values_first(hits), limit=limit, max_chars=max_chars)
    for hit in chosen:
        hit.explanation = _explain(hit, ranks_of[hit.memory.pk], hit.memory.similarity)
    return chosen


def load_hits(hits: list[Hit], user_id: str) -> list[Hit]:
    """The ranked hits of `user_id` with their memories in full (one statement, linked entities included); a
    memory forgotten since it was ranked is left out."""
    full = {memory.pk: memory for memory in models_from_sql(
        Memory, MEMORY_ROW_FIELDS, _WINNERS_SQL.format(table=user_table("memories_memory", user_id)),
        {"user_id": user_id, "ids": [hit.memory.pk for hit in hits]},
        extra=("linked_entities",))}
    loaded = [hit for hit in hits if hit.memory.pk in full]
    for hit in loaded:
        hit.memory = full[hit.memory.pk]
    return loaded


def _said_weights(query: str) -> dict[bool, float]:
    """said_by_assistant → the share of its relevance a memory keeps: what the user said first; as much when
    the question asks after the assistant's words ("what would you suggest?"); and the assistant's first when
    it asks what the assistant already said ("which library did you recommend?"), so the answer comes before
    the user's question that asked for it."""
    weight = recall_setting("memory_retrieval.assistant_weight")
    if asks_what_was_said_before(query):
        return {True: 1.0, False: weight}
    if asks_what_the_assistant_said(query):
        return {True: 1.0, False: 1.0}
    return {True: weight, False: 1.0}


def _relevance(rows: list[RankingRow], *, graph_mentions: dict[int, str]):
    """relevance(row) in 0..1: the weighted mean (`memory_retrieval.relevance_weights`) of its cosine similarity
    and its lexical match, each relative to the best candidate's, and of what the graph adds. A signal no
    candidate has (no query vector, no shared word, no graph) is left out of the mean.

    The graph adds what the question's words cannot: a memory it found that does not itself name the person
    the query mentioned — one reached through a relation (Sarah → Alex's worry about the move) or named
    otherwise ("my boss" → a memory about Sarah). A memory naming that person already matches the question's
    words; counting the name twice let a much-mentioned person's weak matches outrank better ones."""
    weights = recall_setting("memory_retrieval.relevance_weights")
    best_similarity = max((r.similarity for r in rows if r.similarity is not None), default=0.0)
    best_lexical = max((r.lexical for r in rows), default=0.0)
    signals = {
        "semantic": (lambda r: max(r.similarity or 0.0, 0.0) / best_similarity) if best_similarity > 0 else None,
        "lexical": (lambda r: r.lexical / best_lexical) if best_lexical > 0 else None,
        "graph": (lambda r: _graph_adds(graph_mentions.get(r.pk), r.content)) if graph_mentions else None,
    }
    active = {name: signal for name, signal in signals.items() if signal is not None and weights[name] > 0}
    total = sum(weights[name] for name in active) or 1.0

    def relevance(row: RankingRow) -> float:
        return sum(weights[name] * signal(row) for name, signal in active.items()) / total

    return relevance


def _graph_adds(mention: str | None, content: str) -> float:
    """1.0 when the graph found the memory and it does not spell out the mention's words, else 0.0."""
    if mention is None:
        return 0.0
    words = set(_WORDS.findall(content.casefold()))
    return 0.0 if mention and set(_WORDS.findall(mention.casefold())) <= words else 1.0


def _later_values_first(hits: list[Hit]) -> list[Hit]:
    """Best first, except that a memory a later one updates (both kept: ingest/pipeline/value_updates.py) comes
    after that later one when both were found: the update takes the earlier value's place."""
    found = {hit.memory.pk: hit for hit in hits}
    ordered, placed = [], set()

    def place(hit: Hit) -> None:
        placed.add(hit.memory.pk)
        for pk in hit.memory.updated_by or ():
            if pk in found and pk not in placed:
                place(found[pk])
        ordered.append(hit)

    for hit in hits:
        if hit.memory.pk not in placed:
            place(hit)
    return ordered


def _capped(hits: list[Hit], *, limit: int, max_chars: int) -> list[Hit]:
    """Best first, near-duplicates of a kept hit skipped, up to `limit`, their words within max_chars (see the
    module docstring)."""
    threshold = recall_setting("memory_retrieval.near_duplicate_ratio")
    chosen, kept_texts = [], []
    for hit in hits:
        if len(chosen) >= limit:
            break
        text = hit.memory.content.lower()
        if process.extractOne(text, kept_texts, scorer=fuzz.token_sort_ratio, score_cutoff=threshold) is None:
            chosen.append(hit)
            kept_texts.append(text)
    while chosen:
        lengths = [len(hit.memory.content) for hit in chosen]
        length = _common_length(lengths, max_chars)
        if length >= min(MIN_SHORTENED_CHARS, max(lengths)):
            break
        chosen.pop()
    for hit in chosen:
        hit.content = _shortened(hit.memory.content, length)
    return chosen


def _common_length(lengths: list[int], max_chars: int) -> int:
    """The largest length c with sum(min(length, c)) <= max_chars (all of the longest when they fit)."""
    if sum(lengths) <= max_chars:
        return max(lengths)
    left, below = max_chars, len(lengths)
    for length in sorted(lengths):  # the shorter ones whole, the rest share what is left equally
        if length * below > left:
            return left // below
        left, below = left - length, below - 1
    return max(lengths)


def _shortened(text: str, length: int) -> str:
    if len(text) <= length:
        return text
    cut = text[: max(length - 1, 0)]
    return (cut.rsplit(" ", 1)[0] if " " in cut else cut).rstrip(" ,;:") + "…"


def _explain(hit: Hit, ranks: dict[str, int], similarity: float | None) -> str:
    parts = []
    for name in hit.retrievers:
        detail = f"{name} #{ranks[name]}"
        if name == "graph" and hit.hop_path:
            detail += f" via {hit.hop_path}"
        parts.append(detail)
    cosine = "" if similarity is None else f"cos {similarity:.2f}; "
    return (f"found by {', '.join(parts)}; {cosine}relevance {hit.relevance:.2f}, freshness {hit.freshness:.2f},"
            f" importance {hit.memory.importance:.2f} → score {hit.score:.3f}")
