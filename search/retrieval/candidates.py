"""Every retriever's candidates that wait for the query vector, with their ranking columns, in one statement.

The nearest memories by cosine (semantic.py's HNSW query), the graph's pool
(graph.py), which needs those nearest ones (its linked candidates and its
similarity floor), and the columns ranking needs for every candidate, the
full-text ones included, come from one statement. Asked for one after the other
they cost three to five round trips and as many parses of the 384-float vector,
which on a busy machine added 3-5 ms to a search that names a person. The
statement holds the 384-float vector once, in a CTE the others read: written
into each use it made the statement 44 KB of text to quote and parse.

When the nearest query comes back short (a filter that keeps few of the HNSW
scan's rows), semantic.py widens it as before and the statement runs again
with those nearest rows as a list. So does a full list that is far from the
question (`_far_from_the_question`): when every eligible row lies far from it, a
big user's filtered HNSW scan returns rows farther still than the nearest ones.
Eligible rows that are a small share of the user's partition are read exactly
instead (semantic.scanned_exactly): that list is never short of any row.
"""
import json
from dataclasses import dataclass
from datetime import datetime, timedelta

from entities.models import EntityKind
from memories.models import SAID_BY_ASSISTANT, MemoryType
from recall_site.config import recall_setting
from search.retrieval.eligible import Eligible
from search.retrieval.graph import GraphCandidates, graph_pool
from search.retrieval.lexical import eligible_rows, weighted_match
from search.retrieval.ranking import RankingRow
from search.retrieval.semantic import (
    memory_distance,
    nearest,
    nearest_rows,
    scanned_exactly,
    usual_breadth,
    widened_candidates,
)

# The ranking columns of a candidate (ranking.RankingRow); an event tagged with a person not mentioned
# since the cutoff (never mentioned: created before it) decays faster (memories.decay). The time comes
# as epoch seconds: parsing a timestamp costs ~10 µs of Python per value, and a search ranks 100-150
# candidates.
_COLUMNS = """
m.id, m.content, m.type, m.confidence, m.importance, m.half_life_days,
extract(epoch FROM m.last_reinforced_at)::float, extract(epoch FROM m.valid_from)::float, m.pinned,
m.type = %(event)s AND EXISTS (
    SELECT 1 FROM memories_memoryentity link
    JOIN entities_entity entity ON entity.id = link.entity_id
    WHERE link.memory_id = m.id AND entity.kind = %(person)s AND entity.deleted_at IS NULL
      AND (entity.last_mentioned_at < %(cutoff)s
           OR (entity.last_mentioned_at IS NULL AND entity.created_at < %(cutoff)s))
),
1 - {distance}, {lexical}, m.details @> %(assistant_said)s::jsonb,
EXISTS (SELECT 1 FROM memories_memoryentity about WHERE about.memory_id = m.id AND about.entity_id = ANY(%(people)s)),
ARRAY(SELECT jsonb_array_elements_text(m.details -> 'updated_by')::bigint)
"""


@dataclass
class Candidates:
    """The candidates: each retriever's ids, best first, and the ranking columns of all of them."""

    ids: dict[str, list[int]]  # "lexical", "semantic" (with a vector), "graph"
    rows: list[RankingRow]
    graph: GraphCandidates
    nearest: int  # rows the nearest query found, before the similarity floor


def find_candidates(eligible: Eligible, *, vector: str | None, lexical: list[int], reached: list,
                    paths: dict[int, str], limit: int, enough: int, now: datetime,
                    lexeme_weights: dict[str, float], people: list[int] = ()) -> Candidates:
    """The semantic (with a `vector`, as text), graph and given lexical candidates with their ranking columns.

    A nearest query that finds fewer than `enough` rows is widened (semantic.widened_candidates) and the
    statement asked again with the nearest rows it found; an exact one has found all there are."""
    exact = vector is not None and scanned_exactly(eligible, limit)

    def ask(given=None) -> Candidates:
        return _from_statement(eligible, vector=vector, given=given, exact=exact, lexical=lexical, reached=reached,
                               paths=paths, limit=limit, now=now, lexeme_weights=lexeme_weights, people=people)

    first = ask()
    if vector is None or exact:
        return first
    found = first.nearest
    if found >= enough and _far_from_the_question(first, eligible, enough):
        found = len(first.ids["semantic"])
    if found >= enough:
        return first
    widened = widened_candidates(eligible, vector, limit, enough=enough, found=found,
                                 estimated=eligible_rows(eligible))
    return first if widened is None else ask(widened)


def _far_from_the_question(first: Candidates, eligible: Eligible, enough: int) -> bool:
    """The scan's list was full, but fewer than `enough` of its rows passed semantic_min_similarity and the best
    is below `memory_semantic.far_scan_similarity`, for a user with more eligible memories than
    `memory_semantic.far_scan_min_rows` (the planner's estimate, cached: the full-text rarity count asked for
    it). Every eligible row then lies far from the question, where a filtered HNSW scan's order says little:
    on the 2M-memory bench it returned rows at similarity 0.21-0.26 while the nearest were at 0.29-0.35
    (R@10 0). Smaller users' scans find the nearest rows all the same (R@10 1.000): widening theirs only
    cost time."""
    if len(first.ids["semantic"]) >= enough:
        return False
    semantic = recall_setting("memory_semantic")
    similarity = {row.pk: row.similarity for row in first.rows}
    best = max((similarity[pk] for pk in first.ids["semantic"]), default=-1.0)
    return best < semantic["far_scan_similarity"] and eligible_rows(eligible) > semantic["far_scan_min_rows"]


def _from_statement(eligible: Eligible, *, vector, given, exact, lexical, reached, paths, limit, now,
                    lexeme_weights, people) -> Candidates:
    """The candidates from one statement (see `_statement`)."""
    sql = _statement(eligible, vector=vector, given=given, exact=exact, lexical=lexical, reached=reached,
                     limit=limit, now=now, lexeme_weights=lexeme_weights, people=people)
    scanned = vector is not None and given is None and not exact  # an HNSW scan, at the usual breadth
    semantic, graph, ranking_rows, nearest_count = [], [], [], 0
    for *columns, semantic_rank, graph_rank, entity_id, nearest_count in nearest_rows(
            sql, usual_breadth(limit) if scanned else None):
        if columns[0] is None:  # no candidate at all: only the count of nearest rows
            continue
        ranking_rows.append(RankingRow(*columns))
        if semantic_rank is not None:
            semantic.append((semantic_rank, columns[0]))
        if graph_rank is not None:
            graph.append((graph_rank, columns[0], entity_id))
    ids = {"lexical": lexical}
    if vector is not None:
        ids["semantic"] = [pk for _, pk in sorted(semantic)]
    via = {pk: entity_id for _, pk, entity_id in sorted(graph)}
    ids["graph"] = list(via)
    return Candidates(ids, ranking_rows, GraphCandidates.of(via, reached, paths), nearest_count)


def _statement(eligible: Eligible, *, vector, given, exact, lexical, reached, limit, now, lexeme_weights,
               people) -> tuple[str, dict]:
    """(sql, params): the candidates' ranking columns, then their semantic rank, graph rank and reached
    entity, and the rows of the nearest query (`given` (id, similarity) rows, when widened, replace it;
    `exact`: read from all the eligible rows, semantic.scanned_exactly)."""
    retrieval = recall_setting("memory_retrieval")
    params = {"lexical_ids": lexical, "event": MemoryType.EVENT.value, "person": EntityKind.PERSON.value,
              "assistant_said": json.dumps({"said_by": SAID_BY_ASSISTANT}),
              "cutoff": now - timedelta(days=recall_setting("decay.stale_person_days")),
              "vector": vector, "semantic_floor": retrieval["semantic_min_similarity"], "people": list(people),
              **eligible.params}
    ctes, retrievers = [], ["SELECT unnest(%(lexical_ids)s::bigint[]) AS id"]
    vector_sql = None if vector is None else "(SELECT vector FROM query)"
    if vector is None:
        ctes.append("semantic AS (SELECT NULL::bigint AS id, NULL::float8 AS distance, NULL::bigint AS rank"
                    " WHERE false)")
        ctes.append("nearest AS (SELECT 1 WHERE false)")
    else:
        ctes.append("query AS MATERIALIZED (SELECT %(vector)s::vector AS vector)")
        if given is None:
            nearest_sql, nearest_params = nearest(eligible, vector, limit, vector_sql=vector_sql, exact=exact)
            params.update(nearest_params)
            ctes.append(f"nearest AS MATERIALIZED ({nearest_sql})")
        else:
            params.update(given_ids=[pk for pk, _ in given],
                          given_distances=[1.0 - similarity for _, similarity in given])
            ctes.append("nearest AS (SELECT * FROM unnest(%(given_ids)s::bigint[], %(given_distances)s::float8[])"
                        " AS given(id, distance))")
        ctes.append("semantic AS MATERIALIZED (SELECT id, distance, row_number() OVER (ORDER BY distance, id) AS rank"
                    " FROM nearest WHERE 1 - distance >= %(semantic_floor)s)")
        retrievers.append("SELECT id FROM semantic")
    if reached:
        # 1 - the graph's similarity floor: graph_min_similarity, and within graph_similarity_margin of the best
        # semantic match (graph.py); least() ignores the NULL of no semantic match.
        params.update(graph_max_distance=1.0 - retrieval["graph_min_similarity"],
                      graph_margin=retrieval["graph_similarity_margin"])
        ctes.append("bounds AS (SELECT least(%(graph_max_distance)s, min(distance) + %(graph_margin)s) AS distance"
                    " FROM semantic)")
        graph_sql, graph_params = graph_pool(
            eligible, reached, among="(%(lexical_ids)s::bigint[] || ARRAY(SELECT id FROM semantic))",
            max_distance="(SELECT distance FROM bounds)", vector=vector_sql,
            limit=limit)
        params.update(graph_params)
        ctes.append(f"graph AS MATERIALIZED ({graph_sql})")
        retrievers.append("SELECT id FROM graph")
    else:
        ctes.append("graph AS (SELECT NULL::bigint AS id, NULL::bigint AS entity_id, NULL::bigint AS rank WHERE false)")
    # Without a query vector there is no distance to compute (nor sentence rows to read for it).
    distance = memory_distance(vector_sql, eligible) if vector_sql else "NULL::float8"
    columns = _COLUMNS.replace("{distance}", distance).replace("{lexical}", weighted_match(lexeme_weights, params))
    sql = f"""
WITH {", ".join(ctes)}, candidate AS ({" UNION ".join(retrievers)})
SELECT {columns}, semantic.rank, graph.rank, graph.entity_id, counted.rows
FROM (SELECT count(*) AS rows FROM nearest) AS counted
LEFT JOIN (candidate JOIN {eligible.table} m ON m.id = candidate.id AND m.user_id = {eligible.user_sql}) ON true
LEFT JOIN semantic ON semantic.id = m.id
LEFT JOIN graph ON graph.id = m.id
"""
    return sql, params
