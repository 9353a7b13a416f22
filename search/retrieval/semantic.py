"""Semantic retriever: pgvector cosine distance to the query embedding, served by HNSW indexes.

A memory is matched by its whole text and by each of its sentences (memories/sentences.py): the nearest
memories and the memories of the nearest sentences are candidates, at the mean of the whole text's
distance and the best part's (`memory_distance`).

A search gated to one query domain reads that gate's partial HNSW index
(memories.models), so the nearest rows come from the domains it may see. An HNSW
scan finds `hnsw.ef_search` candidates and filters them afterwards: one user's rows
in a shared table, a types filter or explicit domains can keep too few of them.
On pgvector >= 0.8 (the embedded server's 0.8.5) each connection turns on iterative
index scans (`memory_semantic.hnsw_iterative_scan`, in relaxed order: the statement
re-sorts by distance anyway), so the scan goes on until the limit is met or
`memory_semantic.hnsw_max_scan_tuples` have been visited (2,000, not pgvector's
20,000: a filter that keeps almost none of a big table's rows made the scan visit
all 20,000, 2-10 s with the pages not cached; bench/tenants.py). When the rows
still come back short, the eligible rows are counted (at most COUNTED_UP_TO + 1; where the planner estimates
more, its estimate stands in): if there are more than were found and no more than `exact_scan_max_rows`, an
exact scan over them (index scans off) gives them all; a filter that keeps more rows than that gets the
iterative scan once more with a higher bound (`hnsw_widened_max_scan_tuples`, 20,000). On an older pgvector (an
external server at 0.6 or 0.7) the scan is first repeated with a breadth scaled to
the shortfall (at most pgvector's 1000).

Each new database connection starts with the configured breadth and iterative scan
as its session settings (`use_session_settings`, once per PostgreSQL connection: a
pooled one keeps them between requests), so the usual scan is one statement; only
a different breadth (a widened scan, a test's override) sets it in a transaction.
"""
from django.db import connection, transaction

from recall_site.config import recall_setting
from search.retrieval.eligible import Eligible
from search.retrieval.lexical import eligible_rows
from search.retrieval.statistics import cached, database, listed_user, planned_rows

MAX_EF_SEARCH = 1000  # pgvector's upper bound
# Past this many eligible rows, as the planner estimates them, the estimate decides between an exact and a
# widened scan; up to it, the eligible rows are counted (at most this many + 1), which also tells when the
# usual scan found all there is (a small user's few eligible rows), so that no scan runs for nothing.
# Counting a big user's 50,001 read their heap rows, 70-216 ms on the 2M-memory bench (2,001 of them: 5-50
# ms), before the scan read them again.
COUNTED_UP_TO = 2_000
# How many eligible rows an exact scan may read for each tuple a filtered HNSW scan would visit and still be
# chosen (`scanned_exactly`; on the 2M-memory bench, session 29, 10 was slower for 1k-10k users).
EXACT_SCAN_COST = 20


def vector_literal(vector) -> str:
    """The query vector as pgvector text ('[0.1,0.2,…]'), cast with ::vector in SQL. Text already in that
    form passes through: a search formats its vector once for all the queries that use it. Nine significant
    digits give back every float32 exactly, in half the time of pgvector's own repr-based text (0.08 ms)."""
    if isinstance(vector, str):
        return vector
    return "[" + ",".join(["%.9g" % value for value in vector]) + "]"


def nearest(eligible: Eligible, query_vector, limit: int, *, vector_sql: str = "%(vector)s::vector",
            exact: bool = False) -> tuple[str, dict]:
    """(sql, params): (id, cosine distance) of embedded eligible memories, nearest first: the `limit` nearest
    by their whole text and those of the `limit` nearest sentences, at `memory_distance`. `vector_sql` is the
    SQL that gives the query vector (a statement that uses it several times reads it from one CTE). `exact`:
    by reading every eligible row (`scanned_exactly`), never an HNSW index."""
    def distance(column: str) -> str:
        # The function behind `<=>`: the same distances, in a form no HNSW index is matched to.
        return f"cosine_distance({column}, {vector_sql})" if exact else f"{column} <=> {vector_sql}"

    if not recall_setting("memory_semantic.sentence_vectors"):
        return eligible.query(f"m.id, {distance('m.embedding')} AS distance", where="m.embedding IS NOT NULL",
                              order="distance", limit=limit, vector=vector_literal(query_vector))
    by_text, params = eligible.query("m.id", where="m.embedding IS NOT NULL", order=distance("m.embedding"),
                                     limit=limit, vector=vector_literal(query_vector))
    # Exactly, the sentences of eligible memories only: with a filter that keeps few of a user's memories, the
    # user's every sentence would be read, and the nearest of them could all belong to memories filtered out.
    of_eligible = f" AND s.memory_id IN ({eligible.query('m.id')[0]})" if exact else ""
    by_sentence = (f"SELECT s.memory_id FROM {eligible.sentences} s WHERE s.user_id = {eligible.user_sql}"
                   f"{of_eligible} ORDER BY {distance('s.embedding')} LIMIT {int(limit)}")
    return eligible.query(f"m.id, {memory_distance(vector_sql, eligible)} AS distance",
                          where=f"m.embedding IS NOT NULL AND m.id IN (({by_text}) UNION ({by_sentence}))",
                          order="distance", limit=limit, vector=params["vector"])


def scanned_exactly(eligible: Eligible, limit: int) -> bool:
    """Whether the nearest eligible rows are found by reading them all rather than by the HNSW scan: for a user
    their partition's statistics list (statistics.listed_user) whose eligible rows, as the planner estimates them
    (lexical.eligible_rows), are at most `memory_semantic.exact_scan_max_rows` and a small share of the rows
    the scan walks: the partition's in the gate's domains (`gated_rows`).

    A filtered HNSW scan visits about `limit / share` of those tuples to keep `limit` eligible ones, several
    index and heap pages each; an exact scan reads the eligible rows once, through the B-tree on the user and
    the gate's domains or the types asked for. On the 2M-memory bench a user of 5.4k memories beside a
    100k-memory user in one partition (4.4 %) had its scan visit ~900 tuples and read 3,400 pages for 30
    rows: 30-90 ms a question, against 5-11 ms for the exact scan (docs/benchmarks.md, session 29); past
    eligible rows × share of ~700 the two took about as long. The exact scan is taken while the eligible rows
    times their share are at most EXACT_SCAN_COST × `limit`; a user alone in a partition, or most of it,
    keeps the HNSW scan unless a filter keeps few of their rows."""
    if not listed_user(eligible.table, eligible.user_id):
        return False
    estimated = eligible_rows(eligible)
    return estimated <= recall_setting("memory_semantic.exact_scan_max_rows") and \
        estimated * estimated <= EXACT_SCAN_COST * limit * gated_rows(eligible)


def gated_rows(eligible: Eligible) -> float:
    """The planner's estimate of the rows of the user's partition in the gate's domains, every user's: what a
    gate's partial HNSW index holds (memories.models), or less than the full one (cached: statistics.py)."""
    return cached((database(), "gated rows", eligible.table, eligible.domains_sql),
                  lambda: planned_rows(f"SELECT 1 FROM {eligible.table} m WHERE {eligible.domains_sql}", {}))


def memory_distance(vector_sql: str, eligible: Eligible) -> str:
    """SQL: a memory `m`'s cosine distance to the query, the mean of its whole text's and its best part's (its
    nearest sentence's, or the whole text's when that is nearer or it has one sentence); NULL when not
    embedded. The whole text alone favours short memories; the best sentence alone, long ones (more
    sentences, more chances): on the LoCoMo dev conversations the mean ranked best (module docstring of
    memories/sentences.py). The sentences are read from the user's table of them (`eligible`'s); the statement
    must carry `eligible`'s parameters."""
    whole = f"(m.embedding <=> {vector_sql})"
    if not recall_setting("memory_semantic.sentence_vectors"):
        return whole
    best_sentence = (f"(SELECT min(s.embedding <=> {vector_sql}) FROM {eligible.sentences} s"
                     f" WHERE s.user_id = {eligible.user_sql} AND s.memory_id = m.id)")
    return f"(({whole} + least({whole}, {best_sentence})) / 2)"


def hnsw_breadth(limit: int) -> int:
    return min(max(int(recall_setting("memory_semantic.hnsw_ef_search")), limit), MAX_EF_SEARCH)


def usual_breadth(limit: int) -> str | None:
    """The setting a scan for `limit` rows needs (for nearest_rows), None when the connection has it."""
    breadth = hnsw_breadth(limit)
    return None if getattr(connection, "recall_hnsw_breadth", None) == breadth else f"hnsw.ef_search = {breadth}"


# The breadth, and the iterative scan and its bound where the installed pgvector has them (>= 0.8). The
# second column ends with the mode set; it is "unsupported" on an older pgvector, and NULL before the
# extension is installed (a connection opened before `migrate`: it tries again next time).
_SESSION_SETTINGS = """SELECT set_config('hnsw.ef_search', %(breadth)s, false)
    || ' ' || set_config('plan_cache_mode', %(plan_mode)s, false),
    (SELECT CASE WHEN string_to_array(extversion, '.')::int[] >= '{0,8,0}'
                 THEN set_config('hnsw.max_scan_tuples', %(max_tuples)s, false) || ' '
                      || set_config('hnsw.iterative_scan', %(iterative)s, false)
                 ELSE 'unsupported' END
     FROM pg_extension WHERE extname = 'vector')"""


def use_session_settings(sender, connection, **kwargs) -> None:
    """connection_created receiver: the connection's `hnsw.ef_search` becomes the usual breadth, its
    `plan_cache_mode` generic plans (`memory_retrieval.generic_plans`) and, on pgvector >= 0.8,
    `hnsw.iterative_scan` the configured mode and `hnsw.max_scan_tuples` its bound (set in
    autocommit, so no rolled-back transaction undoes them; a pooler that drops them only costs a widened or
    exact scan). A connection handed out again by the pool has them already: no statement then."""
    if connection.vendor != "postgresql":
        return
    breadth = hnsw_breadth(recall_setting("memory_retrieval.candidate_limit"))
    semantic = recall_setting("memory_semantic")
    mode = "relaxed_order" if semantic["hnsw_iterative_scan"] else "off"
    max_tuples = str(semantic["hnsw_max_scan_tuples"])
    plan_mode = "force_generic_plan" if recall_setting("memory_retrieval.generic_plans") else "auto"
    settings = (breadth, mode, max_tuples, plan_mode)
    raw = connection.connection
    if getattr(raw, "recall_session_settings", None) != settings:
        with connection.cursor() as cursor:
            cursor.execute(_SESSION_SETTINGS, {"breadth": str(breadth), "iterative": mode, "max_tuples": max_tuples,
                                               "plan_mode": plan_mode})
            iterative = cursor.fetchone()[1]
        raw.recall_iterative_scan = iterative is not None and iterative.split()[-1] not in ("off", "unsupported")
        if iterative is not None:
            raw.recall_session_settings = settings
    connection.recall_hnsw_breadth = breadth
    connection.recall_iterative_scan = raw.recall_iterative_scan


def widened_candidates(eligible: Eligible, query_vector, limit: int, *, enough: int, found: int,
                       estimated: float = 0.0) -> list[tuple[int, float]] | None:
    """(memory id, cosine similarity) of up to `limit` nearest memories, weak matches dropped, after the
    usual scan found only `found` of the `enough` rows wanted: without iterative scans, the scan again,
    widened in proportion to the shortfall (up to pgvector's maximum); then, if still short, an exact scan
    when the eligible rows are more than were found and at most `memory_semantic.exact_scan_max_rows`, or,
    with iterative scans and more eligible rows than that, the iterative scan again with its bound raised to
    `memory_semantic.hnsw_widened_max_scan_tuples`: a big user's filter whose rows lie far from the query
    (preferences, asked about a cafe) kept too few of the usual 2,000 tuples' rows.
    None when none applies: the usual scan's rows are all there is (all the eligible rows, or too many
    to scan exactly without iterative scans). `estimated`: the planner's estimate of the eligible rows
    (lexical.eligible_rows), taken instead of a count when it is over COUNTED_UP_TO."""
    query = nearest(eligible, query_vector, limit)
    rows = None
    iterative = getattr(connection, "recall_iterative_scan", False)
    if not iterative:
        wider = min(MAX_EF_SEARCH, int(hnsw_breadth(limit) * 1.5 * enough / max(found, 1)))
        rows = nearest_rows(query, f"hnsw.ef_search = {wider}")
        found = len(rows)
    if found < enough:
        most = recall_setting("memory_semantic.exact_scan_max_rows")
        embedded = (estimated if estimated > COUNTED_UP_TO
                    else _embedded_eligible(eligible, min(most, COUNTED_UP_TO) + 1))
        if found < embedded <= most:
            rows = nearest_rows(query, "enable_indexscan = off")
        elif embedded > most and iterative:
            bound = int(recall_setting("memory_semantic.hnsw_widened_max_scan_tuples"))
            if bound > int(recall_setting("memory_semantic.hnsw_max_scan_tuples")):
                rows = nearest_rows(query, f"hnsw.max_scan_tuples = {bound}")
    if rows is None:
        return None
    floor = recall_setting("memory_retrieval.semantic_min_similarity")
    return [(pk, 1.0 - distance) for pk, distance in rows if 1.0 - distance >= floor]


def nearest_rows(query: tuple[str, dict], setting: str | None, *, explain: bool = False) -> list[tuple]:
    """Run a query that scans by cosine distance (`nearest`, or candidates.py's statement) with one
    planner/pgvector setting (SET LOCAL, in a transaction), or with the connection's own (`setting` None)."""
    sql, params = query
    if explain:
        sql = f"EXPLAIN ANALYZE {sql}"
    if setting is None:
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.fetchall()
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"SET LOCAL {setting}")
        cursor.execute(sql, params)
        return cursor.fetchall()


def _embedded_eligible(eligible: Eligible, at_most: int) -> int:
    """How many eligible memories have a vector, counting no further than `at_most`."""
    sql, params = eligible.query("1", where="m.embedding IS NOT NULL", limit=at_most)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(*) FROM ({sql}) AS mine", params)
        return cursor.fetchone()[0]
