"""Graph retriever: entity mentions in the query (and hinted ones) → graph walk → attached memories.

Mentions are found by matching the query's word n-grams against the user's
entity names and aliases (and first names), by index (NAMES_SQL, asked in
words.py's first statement), then resolved with the pipeline's resolver. The
walk (entities.graph.graph_walk) follows relations up to `hop` hops; memories
linked to reached entities become candidates, ordered by closeness to the
query plus a penalty per hop.

A memory of a person named in the query must relate to the query, not just to
that person: with a query vector its cosine similarity to the question must reach
`graph_min_similarity` and come within `graph_similarity_margin` of the best
semantic match's. Otherwise a person named in hundreds of memories (a hub) would
contribute their newest ones whatever the topic: the name alone gives an
unrelated memory ~0.4 against a question naming that person, where the memory
that answers it scores 0.65-0.85. Memories of people reached through a relation
join as they are ("how is Tom's family doing" → his daughter's birthday): that
is what the walk is for, and the per-hop penalty orders them after the named
person's. A reached hub (`graph_hub_memories` memories or more: the other speaker
of a chat, a friend named in hundreds) is held to the named person's bar, or its
newest memories would join every question about its friend. The walk never passes
through the user's own entity.

The pool per reached entity is its newest `graph_memories_per_entity` memories
plus those of the lexical and semantic candidates linked to it, so an old memory
about the question is still found through the person.
"""
import re
from dataclasses import dataclass

from entities.graph import graph_walk
from entities.models import Entity
from entities.names import normalize_name
from entities.resolver import resolve_mention
from recall_site.config import recall_setting
from search.retrieval.eligible import Eligible

MAX_NGRAM = 4
_WORD = re.compile(r"[\w'’.-]+")
_POSSESSIVE = re.compile(r"['’]s$")


@dataclass(frozen=True)
class ResolvedEntity:
    mention: str
    entity: Entity | None
    method: str
    hinted: bool


@dataclass(frozen=True)
class QueryPhrases:
    """The query's word n-grams, longest first, as written (possessives dropped) and normalised."""

    spans: list[tuple[int, int]]  # (size, start)
    written: dict[tuple[int, int], str]
    normalized: dict[tuple[int, int], str]

    @property
    def candidates(self) -> list[str]:
        """The normalised phrases a name lookup (NAMES_SQL) is asked about."""
        return sorted({name for name in self.normalized.values() if name})

    def mentions(self, names: set[str]) -> list[str]:
        """The phrases, as written, that are one of `names` (NAMES_SQL's answer): longest first, none
        overlapping another ("Sarah Chen", not also "Sarah")."""
        found, used = [], set()
        for size, start in self.spans:
            span = set(range(start, start + size))
            if span & used:
                continue
            if self.normalized[(size, start)] in names:
                found.append(self.written[(size, start)])
                used |= span
        return found


def query_phrases(query: str) -> QueryPhrases:
    words = [_POSSESSIVE.sub("", w).strip(".'’-") for w in _WORD.findall(query)]
    spans = [(size, start) for size in range(MAX_NGRAM, 0, -1) for start in range(len(words) - size + 1)]
    written = {span: " ".join(words[span[1]:span[1] + span[0]]) for span in spans}
    return QueryPhrases(spans, written, {span: normalize_name(phrase) for span, phrase in written.items()})


# Which candidates are one of the user's live entity names or aliases (not the user's own entity),
# or the first word of a multi-word one ("sarah" for "sarah chen", not for "my manager"). Each
# branch is an index lookup ((user_id, name) and (user_id, first word)), so a user with thousands
# of contacts costs no more than one with a few.
NAMES_SQL = """
SELECT e.normalized_name FROM entities_entity e
WHERE e.user_id = %(user_id)s AND e.normalized_name = ANY(%(candidates)s)
  AND e.deleted_at IS NULL AND e.kind <> %(self)s
UNION
SELECT a.normalized FROM entities_alias a JOIN entities_entity e ON e.id = a.entity_id
WHERE a.user_id = %(user_id)s AND a.normalized = ANY(%(candidates)s) AND e.deleted_at IS NULL AND e.kind <> %(self)s
UNION
SELECT split_part(e.normalized_name, ' ', 1) FROM entities_entity e
WHERE e.user_id = %(user_id)s AND split_part(e.normalized_name, ' ', 1) = ANY(%(candidates)s)
  AND position(' ' IN e.normalized_name) > 0 AND e.normalized_name NOT LIKE 'my %%'
  AND e.deleted_at IS NULL AND e.kind <> %(self)s
UNION
SELECT split_part(a.normalized, ' ', 1) FROM entities_alias a JOIN entities_entity e ON e.id = a.entity_id
WHERE a.user_id = %(user_id)s AND split_part(a.normalized, ' ', 1) = ANY(%(candidates)s)
  AND position(' ' IN a.normalized) > 0 AND a.normalized NOT LIKE 'my %%'
  AND e.deleted_at IS NULL AND e.kind <> %(self)s
"""


def resolve_entities(user_id: str, mentions: list[str], hints=(), direct=None) -> list[ResolvedEntity]:
    """Hinted mentions first, then the ones found in the query (words.query_words); each mention once.
    `direct`: their direct matches (entities.resolver.DirectMatches), read with the query's words."""
    seen, resolved = set(), []
    for mention, hinted in [(h, True) for h in hints] + [(m, False) for m in mentions]:
        key = normalize_name(mention)
        if not key or key in seen:
            continue
        seen.add(key)
        result = resolve_mention(user_id, mention, direct)
        resolved.append(ResolvedEntity(mention, result.entity, result.method, hinted))
    return resolved


def graph_reach(user_id: str, start_entities, hop: int) -> list:
    """The live entities within `hop` hops (entities.graph.Reached, nearest first) but the user's own,
    bounded for hub entities to the nearest `graph_max_entities`. Needs no query vector."""
    limit = recall_setting("memory_retrieval.graph_max_entities")
    reached = graph_walk(user_id, [entity.pk for entity in start_entities], hop)
    return [r for r in reached if not r.is_self][:limit]  # the user's own memories are all of them


def reach_paths(reached: list) -> dict[int, str]:
    """entity id → how the walk reached it ("sarah chen -partner_of-> alex"; a mentioned entity: its own
    name), from the walk's own rows."""
    return {r.entity_id: r.path_label for r in reached}


# The reached entities' pooled memories: each entity's `per_entity` newest linked memories and its
# linked ones among the other retrievers' candidates ({among}, an SQL array), each memory once, with its
# nearest reached entity (the earlier one in `reached` order on a tie) and whether that entity is a hub
# (`graph_hub_memories` linked memories or more), tested once per reached entity: joined to the pooled
# memories, the planner ran the test once per pooled memory (183 times for 16 entities, ~1 ms).
_POOL_SQL = """
JOIN (
    WITH reached AS MATERIALIZED (
        SELECT walk.entity_id, walk.depth, walk.position, hubs.hub
        FROM unnest(%(reached_ids)s::bigint[], %(reached_depths)s::int[]) WITH ORDINALITY
             AS walk(entity_id, depth, position)
        CROSS JOIN LATERAL (
            SELECT count(*) >= {hub_memories} AS hub FROM (
                SELECT 1 FROM memories_memoryentity WHERE entity_id = walk.entity_id LIMIT {hub_memories}
            ) AS first_links
        ) AS hubs
    )
    SELECT DISTINCT ON (linked.memory_id) linked.memory_id, reached.entity_id, reached.depth, reached.hub
    FROM reached
    JOIN (
        SELECT newest.memory_id, start.entity_id FROM unnest(%(reached_ids)s::bigint[]) AS start(entity_id)
        CROSS JOIN LATERAL (
            SELECT memory_id FROM memories_memoryentity
            WHERE entity_id = start.entity_id ORDER BY memory_id DESC LIMIT {per_entity}
        ) AS newest
        UNION
        SELECT memory_id, entity_id FROM memories_memoryentity
        WHERE memory_id = ANY({among}) AND entity_id = ANY(%(reached_ids)s)
    ) AS linked ON linked.entity_id = reached.entity_id
    ORDER BY linked.memory_id, reached.depth, reached.position
) AS pool ON pool.memory_id = m.id
"""


def graph_pool(eligible: Eligible, reached: list, *, among: str, max_distance: str | None, vector: str | None,
               limit: int) -> tuple[str, dict]:
    """(sql, params) of the reached entities' pooled memories that pass the gate and relate to the query, best
    first: (memory id, reached entity id, rank). `among` is an SQL array of the other retrievers' candidates,
    `max_distance` an SQL expression for 1 - the similarity floor (see the module docstring).

    Ordered by cosine distance to the query plus a penalty per hop (or by hop,
    then importance and recency, without a query vector). With a vector, the named
    entities' own memories must be within `max_distance`; a memory not embedded yet
    counts as just similar enough. The pool, the gate, the similarity floor and the
    order all run in the database.
    """
    params = {"reached_ids": [r.entity_id for r in reached], "reached_depths": [r.depth for r in reached]}
    # The LIMITs as literals, so that a prepared statement's generic plan knows how few rows they ask for.
    pool = _POOL_SQL.replace("{among}", among).replace(
        "{per_entity}", str(int(recall_setting("memory_retrieval.graph_memories_per_entity")))).replace(
        "{hub_memories}", str(int(recall_setting("memory_retrieval.graph_hub_memories"))))
    where = ""
    if vector is not None:
        distance = f"coalesce(m.embedding <=> {vector}, {max_distance})"
        where = f"((pool.depth > 0 AND NOT pool.hub) OR {distance} <= {max_distance})"
        order = f"{distance} + %(penalty)s * pool.depth, m.importance DESC, m.id DESC"
        params["penalty"] = recall_setting("memory_retrieval.graph_depth_penalty")
    else:
        order = "pool.depth, m.importance DESC, m.last_reinforced_at DESC, m.id DESC"
    sql, params = eligible.query(f"m.id, pool.entity_id, row_number() OVER (ORDER BY {order}) AS rank",
                                 join=pool, where=where, order=order, limit=limit, **params)
    return sql, params


@dataclass(frozen=True)
class GraphCandidates:
    """The graph retriever's candidates, best first, with how each was reached."""

    ids: list[int]
    hop_paths: dict[int, str]  # memory id → "sarah chen -partner_of-> alex"
    start_of: dict[int, int]  # memory id → the mentioned entity its walk started from

    @classmethod
    def of(cls, via: dict[int, int], reached: list, paths: dict[int, str]) -> "GraphCandidates":
        """From {memory id: reached entity id}, best first, and reach_paths(reached)."""
        by_entity = {r.entity_id: r for r in reached}
        return cls(list(via), {memory_id: paths[entity_id] for memory_id, entity_id in via.items()},
                   {memory_id: by_entity[entity_id].node_path[0] for memory_id, entity_id in via.items()})


def mentions_of(resolved: list[ResolvedEntity], graph: GraphCandidates) -> dict[int, str]:
    """memory id → the query's words for the person its walk started from ("sarah", "my boss")."""
    mention_by_entity = {r.entity.pk: r.mention for r in resolved if r.entity is not None}
    return {memory_id: mention_by_entity.get(start, "") for memory_id, start in graph.start_of.items()}
