"""Semantic retriever: pgvector cosine distance to the query embedding, served by HNSW indexes.

A memory is matched by its whole text and by each of its sentences (memories/sentences.py): the nearest
memories and the memories of the nearest sentences are candidates, at the mean of the whole text's
distance and the best part's (`memory_distance`).

A search gated to one query domain reads that gate's partial HNSW index
(memories.models), so the nearest rows come from the domains it may see.
pgvector 0.6 still filters HNSW results after the index scan: with `hnsw.ef_search`
candidates and a filter that keeps few of them (one user's rows in a shared
table, a types filter, explicit domains), too few rows can come back. Then the
scan is repeated with a breadth scaled to the shortfall (at most pgvector's
1000), and if the filter is more selective still, as an exact scan over the
eligible rows (index scans off) if the user has at most `exact_scan_max_rows`
memories — what a user with few memories gets from the planner anyway. A large
user whose filter is that selective keeps the short list; full-text and graph
candidates still apply.

Each new database connection starts with the configured breadth as its session
setting (`use_session_breadth`, once per PostgreSQL connection: a pooled one keeps
it between requests), so the usual scan is one statement; only a different
breadth (a widened scan, a test's override) sets it in a transaction.
"""
from django.db import connection, transaction

from recall_site.config import recall_setting
from search.retrieval.eligible import Eligible

MAX_EF_SEARCH = 1000  # pgvector's upper bound


def vector_literal(vector) -> str:
    """The query vector as pgvector text ('[0.1,0.2,…]'), cast with ::vector in SQL. Text already in that
    form passes through: a search formats its vector once for all the queries that use it. Nine significant
    digits give back every float32 exactly, in half the time of pgvector's own repr-based text (0.08 ms)."""
    if isinstance(vector, str):
        return vector
    return "[" + ",".join(["%.9g" % value for value in vector]) + "]"


def nearest(eligible: Eligible, query_vector, limit: int, *, vector_sql: str = "%(vector)s::vector") -> tuple[str, dict]:
    """(sql, params): (id, cosine distance) of embedded eligible memories, nearest first: the `limit` nearest
    by their whole text and those of the `limit` nearest sentences, at `memory_distance`. `vector_sql` is the
    SQL that gives the query vector (a statement that uses it several times reads it from one CTE)."""
    if not recall_setting("memory_semantic.sentence_vectors"):
        return eligible.query(f"m.id, m.embedding <=> {vector_sql} AS distance", where="m.embedding IS NOT NULL",
                              order="distance", limit=limit, vector=vector_literal(query_vector))
    by_text, params = eligible.query("m.id", where="m.embedding IS NOT NULL", order=f"m.embedding <=> {vector_sql}",
                                     limit=limit, vector=vector_literal(query_vector))
    by_sentence = (f"SELECT s.memory_id FROM memories_memorysentence s WHERE s.user_id = %(eligible_user_id)s"
                   f" ORDER BY s.embedding <=> {vector_sql} LIMIT %(limit)s")
    return eligible.query(f"m.id, {memory_distance(vector_sql)} AS distance",
                          where=f"m.embedding IS NOT NULL AND m.id IN (({by_text}) UNION ({by_sentence}))",
                          order="distance", limit=limit, vector=params["vector"])


def memory_distance(vector_sql: str) -> str:
    """SQL: a memory `m`'s cosine distance to the query, the mean of its whole text's and its best part's (its
    nearest sentence's, or the whole text's when that is nearer or it has one sentence); NULL when not
    embedded. The whole text alone favours short memories; the best sentence alone, long ones (more
    sentences, more chances): on the LoCoMo dev conversations the mean ranked best (module docstring of
    memories/sentences.py)."""
    whole = f"(m.embedding <=> {vector_sql})"
    if not recall_setting("memory_semantic.sentence_vectors"):
        return whole
    best_sentence = (f"(SELECT min(s.embedding <=> {vector_sql}) FROM memories_memorysentence s"
                     " WHERE s.memory_id = m.id)")
    return f"(({whole} + least({whole}, {best_sentence})) / 2)"


def hnsw_breadth(limit: int) -> int:
    return min(max(int(recall_setting("memory_semantic.hnsw_ef_search")), limit), MAX_EF_SEARCH)


def usual_breadth(limit: int) -> str | None:
    """The setting a scan for `limit` rows needs (for nearest_rows), None when the connection has it."""
    breadth = hnsw_breadth(limit)
    return None if getattr(connection, "recall_hnsw_breadth", None) == breadth else f"hnsw.ef_search = {breadth}"


def use_session_breadth(sender, connection, **kwargs) -> None:
    """connection_created receiver: the connection's `hnsw.ef_search` becomes the usual breadth (set in
    autocommit, so no rolled-back transaction undoes it; a pooler that drops it only costs a widened scan).
    A connection handed out again by the pool has it already: no statement then."""
    if connection.vendor != "postgresql":
        return
    breadth = hnsw_breadth(recall_setting("memory_retrieval.candidate_limit"))
    if getattr(connection.connection, "recall_hnsw_breadth", None) != breadth:
        with connection.cursor() as cursor:
            cursor.execute(f"SET hnsw.ef_search = {breadth}")
        connection.connection.recall_hnsw_breadth = breadth
    connection.recall_hnsw_breadth = breadth


def widened_candidates(eligible: Eligible, query_vector, limit: int, *, user_id: str, enough: int,
                       found: int) -> list[tuple[int, float]]:
    """(memory id, cosine similarity) of up to `limit` nearest memories, weak matches dropped, after a scan at
    the usual breadth found only `found` of the `enough` rows wanted: the scan again, widened in proportion to
    the shortfall (up to pgvector's maximum), then, if still short, an exact scan when the user has at most
    `memory_semantic.exact_scan_max_rows` memories."""
    query = nearest(eligible, query_vector, limit)
    wider = min(MAX_EF_SEARCH, int(hnsw_breadth(limit) * 1.5 * enough / max(found, 1)))
    rows = nearest_rows(query, f"hnsw.ef_search = {wider}")
    if len(rows) < enough and _user_has_at_most(user_id, recall_setting("memory_semantic.exact_scan_max_rows")):
        rows = nearest_rows(query, "enable_indexscan = off")
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


def _user_has_at_most(user_id: str, rows: int) -> bool:
    """Whether the user has at most `rows` memories (an index scan that stops after rows + 1)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM (SELECT 1 FROM memories_memory WHERE user_id = %s LIMIT %s) AS mine",
                       [user_id, rows + 1])
        return cursor.fetchone()[0] <= rows
