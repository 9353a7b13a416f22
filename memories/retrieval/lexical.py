"""Lexical retriever: PostgreSQL full-text search over the generated `search_vector` (GIN index).

Query words are OR-ed (english stemming, stop words dropped) and ranked with
ts_rank_cd, so a memory matching more of the query ranks higher.
"""
import re

from django.contrib.postgres.search import SearchQuery, SearchRank
from django.db.models import F, QuerySet

_WORD = re.compile(r"\w+")


def tsquery_text(query: str) -> str:
    """"what about the move?" → "what | about | the | move" (PostgreSQL drops the stop words)."""
    words = dict.fromkeys(word.lower() for word in _WORD.findall(query) if not word.isdigit() or len(word) > 1)
    return " | ".join(words)


def lexical_candidates(queryset: QuerySet, query: str, limit: int) -> list[int]:
    """Memory ids matching the query's words, best first."""
    text = tsquery_text(query)
    if not text:
        return []
    search = SearchQuery(text, search_type="raw", config="english")
    ranked = (
        queryset.filter(search_vector=search)
        .annotate(lexical_rank=SearchRank(F("search_vector"), search, cover_density=True))
        .order_by("-lexical_rank", "-id")
    )
    return list(ranked.values_list("id", flat=True)[:limit])
