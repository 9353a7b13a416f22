"""Semantic retriever: pgvector cosine distance to the query embedding, served by the HNSW index.

pgvector 0.6 filters HNSW results after the index scan: with `hnsw.ef_search`
candidates and a filter that keeps few of them (a health-only query, one user's
rows in a shared table), too few rows can come back. Then the scan is repeated
with a breadth scaled to the shortfall (at most pgvector's 1000), and if the
filter is more selective still, as an exact scan over the eligible rows (index
scans off) if the user has at most `exact_scan_max_rows` memories — what a user
with few memories gets from the planner anyway. A large user whose filter is that
selective keeps the short list; full-text and graph candidates still apply.
"""
from contextlib import contextmanager

from django.db import connection, transaction
from django.db.models import QuerySet
from pgvector.django import CosineDistance

from memories.models import Memory
from recall_site.config import recall_setting

MAX_EF_SEARCH = 1000  # pgvector's upper bound


def nearest(queryset: QuerySet, query_vector) -> QuerySet:
    """(id, cosine distance) of embedded memories, nearest first."""
    return (
        queryset.filter(embedding__isnull=False)
        .annotate(distance=CosineDistance("embedding", list(query_vector)))
        .order_by("distance")
        .values_list("id", "distance")
    )


def _breadth(limit: int) -> int:
    return min(max(int(recall_setting("memory_semantic.hnsw_ef_search")), limit), MAX_EF_SEARCH)


@contextmanager
def hnsw_search_breadth(limit: int):
    """Raise `hnsw.ef_search` for the queries inside."""
    with _local_setting(f"hnsw.ef_search = {_breadth(limit)}"):
        yield


@contextmanager
def _local_setting(assignment: str):
    """Run the queries inside with one planner/pgvector setting (SET LOCAL, in a transaction)."""
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(f"SET LOCAL {assignment}")
        yield


def semantic_candidates(queryset: QuerySet, query_vector, limit: int, *, user_id: str,
                        enough: int | None = None) -> list[tuple[int, float]]:
    """(memory id, cosine similarity) of up to `limit` nearest memories; weak matches are dropped.

    If the HNSW scan yields fewer than `enough` rows, it is widened in proportion to
    the shortfall (up to pgvector's maximum), then replaced by an exact scan when
    the user has at most `memory_semantic.exact_scan_max_rows` memories.
    """
    floor = recall_setting("memory_retrieval.semantic_min_similarity")
    enough = min(enough or limit, limit)
    breadth = _breadth(limit)
    rows = _nearest_rows(queryset, query_vector, limit, f"hnsw.ef_search = {breadth}")
    if len(rows) < enough:
        wider = min(MAX_EF_SEARCH, int(breadth * 1.5 * enough / max(len(rows), 1)))
        rows = _nearest_rows(queryset, query_vector, limit, f"hnsw.ef_search = {wider}")
    if len(rows) < enough and _user_has_at_most(user_id, recall_setting("memory_semantic.exact_scan_max_rows")):
        rows = _nearest_rows(queryset, query_vector, limit, "enable_indexscan = off")
    return [(pk, 1.0 - distance) for pk, distance in rows if 1.0 - distance >= floor]


def _nearest_rows(queryset, query_vector, limit, setting):
    with _local_setting(setting):
        return list(nearest(queryset, query_vector)[:limit])


def _user_has_at_most(user_id: str, rows: int) -> bool:
    """Whether the user has at most `rows` memories (an index scan that stops after rows + 1)."""
    return Memory.objects.filter(user_id=user_id).values("pk")[: rows + 1].count() <= rows
