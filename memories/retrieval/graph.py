"""Graph retriever: entity mentions in the query (and hinted ones) → graph walk → attached memories.

Mentions are found by matching the query's word n-grams against the user's
entity names and aliases (and first names), then resolved with the pipeline's
resolver. The walk (entities.selectors.graph_walk) follows relations up to
`hop` hops; memories linked to reached entities become candidates, ordered by
closeness to the query plus a penalty per hop.
"""
import re
from dataclasses import dataclass, field

from django.db import connection

from entities.models import Entity, EntityKind
from entities.names import normalize_name
from entities.selectors import graph_walk, path_label, path_words
from entities.services import resolve_mention
from memories.retrieval.eligible import Eligible
from memories.retrieval.semantic import vector_literal
from recall_site.config import recall_setting

MAX_NGRAM = 4
_WORD = re.compile(r"[\w'’.-]+")
_POSSESSIVE = re.compile(r"['’]s$")


@dataclass(frozen=True)
class ResolvedEntity:
    mention: str
    entity: Entity | None
    method: str
    hinted: bool


def detect_mentions(user_id: str, query: str) -> list[str]:
    """Word n-grams of the query that name one of the user's entities ("Sarah", "my boss")."""
    words = [_POSSESSIVE.sub("", w).strip(".'’-") for w in _WORD.findall(query)]
    spans = [(size, start) for size in range(MAX_NGRAM, 0, -1) for start in range(len(words) - size + 1)]
    phrases = {span: " ".join(words[span[1]:span[1] + span[0]]) for span in spans}
    normalized = {span: normalize_name(phrase) for span, phrase in phrases.items()}
    names = _known_names(user_id, {name for name in normalized.values() if name})
    found, used = [], set()
    for size, start in spans:
        span = set(range(start, start + size))
        if span & used:
            continue
        if normalized[(size, start)] in names:
            found.append(phrases[(size, start)])
            used |= span
    return found


# The user's live entity names and aliases (not the user's own entity), and the first word of
# multi-word names ("sarah" for "sarah chen", not for "my manager") — only those among the candidates.
_NAMES_SQL = """
WITH names AS (
    SELECT normalized_name AS name FROM entities_entity
    WHERE user_id = %(user_id)s AND deleted_at IS NULL AND kind <> %(self)s
    UNION ALL
    SELECT alias.normalized FROM entities_alias alias JOIN entities_entity entity ON entity.id = alias.entity_id
    WHERE alias.user_id = %(user_id)s AND entity.deleted_at IS NULL AND entity.kind <> %(self)s
)
SELECT name FROM names WHERE name = ANY(%(candidates)s)
UNION
SELECT split_part(name, ' ', 1) FROM names
WHERE position(' ' IN name) > 0 AND name NOT LIKE 'my %%' AND split_part(name, ' ', 1) = ANY(%(candidates)s)
"""


def _known_names(user_id: str, candidates: set[str]) -> set[str]:
    """Which of the candidate (normalised) phrases name one of the user's entities: one query."""
    if not candidates:
        return set()
    with connection.cursor() as cursor:
        cursor.execute(_NAMES_SQL, {"user_id": user_id, "self": EntityKind.SELF.value, "candidates": list(candidates)})
        return {row[0] for row in cursor.fetchall()}


def resolve_entities(user_id: str, query: str, hints=()) -> list[ResolvedEntity]:
    """Hinted mentions first, then the ones detected in the query; each mention once."""
    seen, resolved = set(), []
    for mention, hinted in [(h, True) for h in hints] + [(m, False) for m in detect_mentions(user_id, query)]:
        key = normalize_name(mention)
        if not key or key in seen:
            continue
        seen.add(key)
        result = resolve_mention(user_id, mention)
        resolved.append(ResolvedEntity(mention, result.entity, result.method, hinted))
    return resolved


@dataclass
class GraphReach:
    """What the walk from the query's entities reached: entities with their paths, and their memories."""

    reached: list = field(default_factory=list)
    depth: dict[int, int] = field(default_factory=dict)  # entity id → hops from a start entity
    via: dict[int, int] = field(default_factory=dict)  # memory id → the closest reached entity it is linked to


def graph_reach(user_id: str, start_entities, hop: int) -> GraphReach:
    """Walk up to `hop` hops and pool the memories of the entities reached (needs no query vector).

    Bounded for hub entities: the nearest `graph_max_entities` reached entities each
    contribute their `graph_memories_per_entity` newest memories.
    """
    retrieval = recall_setting("memory_retrieval")
    reached = graph_walk(user_id, [entity.pk for entity in start_entities], hop)[:retrieval["graph_max_entities"]]
    reach = GraphReach(reached, {r.entity_id: r.depth for r in reached})
    if reached:
        for memory_id, entity_id in _linked_pool(reach.depth, retrieval["graph_memories_per_entity"]):
            if memory_id not in reach.via or reach.depth[entity_id] < reach.depth[reach.via[memory_id]]:
                reach.via[memory_id] = entity_id
    return reach


def graph_candidates(eligible: Eligible, reach: GraphReach, *, query_vector,
                     limit: int) -> tuple[list[int], dict[int, str]]:
    """(memory ids, hop path per memory): the reached memories that pass the gate, best first.

    Ordered by cosine distance to the query plus a penalty per hop (or by hop,
    then importance, without a query vector).
    """
    if not reach.via:
        return [], {}
    depth, via = reach.depth, reach.via
    if query_vector is not None:
        penalty = recall_setting("memory_retrieval.graph_depth_penalty")
        rows = _pool_rows(eligible, via, "m.id, m.embedding <=> %(vector)s::vector, m.importance",
                          vector=vector_literal(query_vector))
        order = sorted(rows, key=lambda r: ((1.0 if r[1] is None else r[1]) + penalty * depth[via[r[0]]], -r[2]))
    else:
        rows = _pool_rows(eligible, via, "m.id, m.importance, m.last_reinforced_at")
        order = sorted(rows, key=lambda r: (depth[via[r[0]]], -r[1], -r[2].timestamp()))
    ordered = [row[0] for row in order[:limit]]
    return ordered, _hop_paths(reach.reached, {m: via[m] for m in ordered})


def _pool_rows(eligible: Eligible, via: dict[int, int], select: str, **params) -> list[tuple]:
    """The pooled memories that pass the gate, with the `select`ed columns."""
    with connection.cursor() as cursor:
        cursor.execute(*eligible.query(select, where="m.id = ANY(%(pool)s)", pool=list(via), **params))
        return cursor.fetchall()


_POOL_SQL = """
SELECT linked.memory_id, reached.entity_id
FROM unnest(%s::bigint[]) AS reached(entity_id)
CROSS JOIN LATERAL (
    SELECT memory_id FROM memories_memoryentity
    WHERE entity_id = reached.entity_id ORDER BY memory_id DESC LIMIT %s
) AS linked
"""


def _linked_pool(depth: dict[int, int], per_entity: int) -> list[tuple[int, int]]:
    """(memory id, entity id) for each reached entity's newest linked memories (index scans only)."""
    with connection.cursor() as cursor:
        cursor.execute(_POOL_SQL, [list(depth), per_entity])
        return cursor.fetchall()


def _hop_paths(reached, entity_by_memory: dict[int, int]) -> dict[int, str]:
    by_entity = {r.entity_id: r for r in reached}
    wanted = [by_entity[e] for e in set(entity_by_memory.values())]
    labels, predicates = path_words(wanted)
    paths = {r.entity_id: path_label(r, labels, predicates) or labels.get(r.entity_id, "") for r in wanted}
    return {memory_id: paths[entity_id] for memory_id, entity_id in entity_by_memory.items()}
