"""Lexical retriever: PostgreSQL full-text search over the generated `search_vector` (GIN index).

The query's english lexemes (stemmed, stop words dropped) are matched in tiers,
most demanding first: all of them, then any two, then (when the semantic
retriever is off) any one. Each tier is ranked with ts_rank and only runs when
the tiers before it found fewer than `limit` memories. ts_rank has no notion of
word rarity, so a memory matching more of the query's lexemes already outranks
one matching fewer; the tiers give the same order without ranking every memory
that shares one common word with the query (at 100k memories a one-word OR
matches ~6,000 rows: 15-30 ms per query, against 1-5 ms for the first tier).
Single-word overlaps are left to the vectors when they run. ts_rank_cd, which
also weighs proximity, costs ~2.5x more per matching row, so plain ts_rank is used.
"""
from itertools import combinations

from django.contrib.postgres.search import SearchQuery, SearchRank
from django.db import connection
from django.db.models import F, QuerySet

MAX_LEXEMES = 8


def query_lexemes(query: str) -> list[str]:
    """The query as PostgreSQL indexes text: english lexemes, stop words removed."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT tsvector_to_array(to_tsvector('english', %s))", [query])
        return list(cursor.fetchone()[0])[:MAX_LEXEMES]


def match_tiers(lexemes: list[str], *, pairs: bool) -> list[str]:
    """Raw tsqueries, most demanding first: ['lunch', 'sarah', 'cafe'] →
    "'lunch' & 'sarah' & 'cafe'", "('lunch' & 'sarah') | ('lunch' & 'cafe') | ('sarah' & 'cafe')",
    and unless `pairs` (at least two lexemes must match) "'lunch' | 'sarah' | 'cafe'"."""
    quoted = ["'" + lexeme.replace("'", "''") + "'" for lexeme in lexemes]
    tiers = [" & ".join(quoted)] if len(quoted) > 1 else []
    if len(quoted) > 2:
        tiers.append(" | ".join(f"({a} & {b})" for a, b in combinations(quoted, 2)))
    if not pairs or len(quoted) == 1:
        tiers.append(" | ".join(quoted))
    return tiers


def ranked_matches(queryset: QuerySet, tsquery: str) -> QuerySet:
    """Ids of memories matching one raw tsquery of lexemes, best first."""
    # The lexemes are already normalised: the `simple` config keeps them as they are.
    search = SearchQuery(tsquery, search_type="raw", config="simple")
    return (
        queryset.filter(search_vector=search)
        .annotate(lexical_rank=SearchRank(F("search_vector"), search))
        .order_by("-lexical_rank", "-id")
        .values_list("id", flat=True)
    )


def lexical_candidates(queryset: QuerySet, lexemes: list[str], limit: int, *, pairs: bool = False) -> list[int]:
    """Up to `limit` memory ids, tier by tier (see the module docstring)."""
    found: list[int] = []
    for tsquery in match_tiers(lexemes, pairs=pairs):
        if len(found) >= limit:
            break
        matches = ranked_matches(queryset, tsquery)
        found += matches.exclude(pk__in=found)[: limit - len(found)] if found else matches[:limit]
    return found
