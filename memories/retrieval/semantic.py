"""Semantic retriever: pgvector cosine distance to the query embedding, served by the HNSW index."""
from contextlib import contextmanager

from django.db import connection, transaction
from django.db.models import QuerySet
from pgvector.django import CosineDistance

from recall_site.config import recall_setting


def nearest(queryset: QuerySet, query_vector) -> QuerySet:
    """(id, cosine distance) of embedded memories, nearest first."""
    return (
        queryset.filter(embedding__isnull=False)
        .annotate(distance=CosineDistance("embedding", list(query_vector)))
        .order_by("distance")
        .values_list("id", "distance")
    )


@contextmanager
def hnsw_search_breadth(limit: int):
    """Raise `hnsw.ef_search` for the queries inside (SET LOCAL, in a transaction) so filters
    applied after the index scan still leave `limit` rows."""
    ef_search = max(int(recall_setting("memory_semantic.hnsw_ef_search")), limit)
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(f"SET LOCAL hnsw.ef_search = {ef_search}")
        yield


def semantic_candidates(queryset: QuerySet, query_vector, limit: int) -> list[tuple[int, float]]:
    """(memory id, cosine similarity) of the nearest memories; weak matches are dropped."""
    floor = recall_setting("memory_retrieval.semantic_min_similarity")
    with hnsw_search_breadth(limit):
        rows = list(nearest(queryset, query_vector)[:limit])
    return [(pk, 1.0 - distance) for pk, distance in rows if 1.0 - distance >= floor]
