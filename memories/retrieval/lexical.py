"""Lexical retriever: PostgreSQL full-text search over the generated `search_vector` (GIN index).

Query words are OR-ed (english stemming, stop words dropped) and ranked with
ts_rank, so a memory matching more of the query ranks higher. (ts_rank_cd
weighs term proximity too but costs ~2.5x more per matching row: 87 ms vs
33 ms over 5,200 matches at 100k memories.)
"""
import re

from django.contrib.postgres.search import SearchQuery, SearchRank
from django.db.models import F, QuerySet

_WORD = re.compile(r"\w+")


def tsquery_text(query: str) -> str:
    """"what about the move?" → "what | about | the | move" (PostgreSQL drops the stop words)."""
    words = dict.fromkeys(word.lower() for word in _WORD.findall(query) if not word.isdigit() or len(word) > 1)
    return " | ".join(words)


def ranked_matches(queryset: QuerySet, query: str) -> QuerySet | None:
    """Memory ids matching any of the query's words, best first (None if the query has no words)."""
    text = tsquery_text(query)
    if not text:
        return None
    search = SearchQuery(text, search_type="raw", config="english")
    return (
        queryset.filter(search_vector=search)
        .annotate(lexical_rank=SearchRank(F("search_vector"), search))
        .order_by("-lexical_rank", "-id")
        .values_list("id", flat=True)
    )


def lexical_candidates(queryset: QuerySet, query: str, limit: int) -> list[int]:
    matches = ranked_matches(queryset, query)
    return [] if matches is None else list(matches[:limit])
