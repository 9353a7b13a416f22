"""Semantic retriever: pgvector cosine distance to the query embedding, served by the HNSW index.

pgvector 0.6 filters HNSW results after the index scan: with `hnsw.ef_search`
candidates and a filter that keeps few of them (a health-only query, one user's
rows in a shared table), fewer than `limit` rows can come back. Then the scan is
repeated with the widest breadth pgvector allows (1000), and if the filter is
that selective, as an exact scan over the eligible rows (index scans off) —
which is what a user with few memories gets from the planner anyway.
"""
from contextlib import contextmanager

from django.db import connection, transaction
from django.db.models import QuerySet
from pgvector.django import CosineDistance

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
    """Raise `hnsw.ef_search` for the queries inside (SET LOCAL, in a transaction)."""
    with _local_settings(f"hnsw.ef_search = {_breadth(limit)}"):
        yield


@contextmanager
def _local_settings(*assignments: str):
    with transaction.atomic():
        with connection.cursor() as cursor:
            for assignment in assignments:
                cursor.execute(f"SET LOCAL {assignment}")
        yield


def semantic_candidates(queryset: QuerySet, query_vector, limit: int) -> list[tuple[int, float]]:
    """(memory id, cosine similarity) of the nearest memories; weak matches are dropped."""
    floor = recall_setting("memory_retrieval.semantic_min_similarity")
    for settings in (f"hnsw.ef_search = {_breadth(limit)}", f"hnsw.ef_search = {MAX_EF_SEARCH}",
                     "enable_indexscan = off"):
        with _local_settings(settings):
            rows = list(nearest(queryset, query_vector)[:limit])
        if len(rows) >= limit:
            break
    return [(pk, 1.0 - distance) for pk, distance in rows if 1.0 - distance >= floor]
