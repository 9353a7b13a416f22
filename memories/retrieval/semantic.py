"""Semantic retriever: pgvector cosine distance to the query embedding, served by the HNSW index."""
from django.db import connection, transaction
from django.db.models import QuerySet
from pgvector.django import CosineDistance

from recall_site.config import recall_setting


def semantic_candidates(queryset: QuerySet, query_vector, limit: int) -> list[tuple[int, float]]:
    """(memory id, cosine similarity) of the nearest embedded memories, nearest first.

    `hnsw.ef_search` is raised for this query only (SET LOCAL) so filters applied
    after the index scan still leave enough rows; weak matches are dropped.
    """
    floor = recall_setting("memory_retrieval.semantic_min_similarity")
    ef_search = max(int(recall_setting("memory_semantic.hnsw_ef_search")), limit)
    nearest = (
        queryset.filter(embedding__isnull=False)
        .annotate(distance=CosineDistance("embedding", list(query_vector)))
        .order_by("distance")
        .values_list("id", "distance")[:limit]
    )
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(f"SET LOCAL hnsw.ef_search = {int(ef_search)}")
        rows = list(nearest)
    return [(pk, 1.0 - distance) for pk, distance in rows if 1.0 - distance >= floor]
