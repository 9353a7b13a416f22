"""Lexical retriever: PostgreSQL full-text search over the generated `search_vector` (GIN index).

The query's english lexemes (stemmed, stop words dropped) are matched in tiers,
most demanding first: all of them, then (text-only search) any two, then any
one. Each tier is ranked with ts_rank and only runs when the tiers before it
found fewer than `limit` memories. ts_rank has no notion of word rarity, so a
memory matching more of the query's lexemes already outranks one matching
fewer; the tiers give that order without ranking every memory that shares one
common word with the query (at 100k memories a one-word OR matches ~6,000 rows:
15-30 ms per query, against 1-5 ms for the first tier). When the semantic
retriever runs, full text contributes the memories holding all the query's
lexemes (a single lexeme: any memory with it); partial overlaps are left to the
vectors and the entity graph (the quality fixture scores the same; the any-two
tier cost ~5 ms per query at 100k). ts_rank_cd, which also weighs proximity,
costs ~2.5x more per matching row, so plain ts_rank is used.

With vectors, full text also stands aside when even all of the query's lexemes are
shared by more than `memory_retrieval.lexical_max_matches` eligible memories: like
a stop word, such a match says nothing about which of them is relevant, and ranking
thousands of rows for it cost 15-20 ms at 100k. Without vectors full text is the
main retriever and always ranks every match.
"""
from itertools import combinations

from django.db import connection

from memories.retrieval.eligible import Eligible
from recall_site.config import recall_setting

MAX_LEXEMES = 8


def query_lexemes(query: str) -> list[str]:
    """The query as PostgreSQL indexes text: english lexemes, stop words removed."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT tsvector_to_array(to_tsvector('english', %s))", [query])
        return list(cursor.fetchone()[0])[:MAX_LEXEMES]


def match_tiers(lexemes: list[str], *, all_lexemes: bool) -> list[str]:
    """Raw tsqueries, most demanding first: ['lunch', 'sarah', 'cafe'] → "'lunch' & 'sarah' & 'cafe'",
    then unless `all_lexemes` "('lunch' & 'sarah') | ('lunch' & 'cafe') | ('sarah' & 'cafe')" and
    "'lunch' | 'sarah' | 'cafe'"."""
    quoted = ["'" + lexeme.replace("'", "''") + "'" for lexeme in lexemes]
    if len(quoted) == 1:
        return quoted
    tiers = [" & ".join(quoted)]
    if not all_lexemes:
        if len(quoted) > 2:
            tiers.append(" | ".join(f"({a} & {b})" for a, b in combinations(quoted, 2)))
        tiers.append(" | ".join(quoted))
    return tiers


def ranked_matches(eligible: Eligible, tsquery: str, limit: int, exclude=(), *,
                   max_matches: int | None = None) -> tuple[str, dict]:
    """(sql, params): ids of eligible memories matching one raw tsquery of lexemes, best first; none at
    all if more than `max_matches` memories match (the scan stops after max_matches + 1)."""
    # The lexemes are already normalised: the `simple` config keeps them as they are.
    where = "m.search_vector @@ to_tsquery('simple', %(tsquery)s) AND NOT m.id = ANY(%(exclude)s)"
    rank = "ts_rank(m.search_vector, to_tsquery('simple', %(tsquery)s))"
    if max_matches is None:
        return eligible.query("m.id", where=where, order=f"{rank} DESC, m.id DESC", limit=limit,
                              tsquery=tsquery, exclude=list(exclude))
    sql, params = eligible.query(f"m.id, {rank} AS rank", where=where, limit=max_matches + 1,
                                 tsquery=tsquery, exclude=list(exclude))
    sql = (f"WITH matches AS MATERIALIZED ({sql}) SELECT id FROM matches"
           " WHERE (SELECT count(*) FROM matches) <= %(max_matches)s ORDER BY rank DESC, id DESC LIMIT %(ranked)s")
    return sql, {**params, "max_matches": max_matches, "ranked": limit}


def lexical_candidates(eligible: Eligible, lexemes: list[str], limit: int, *, all_lexemes: bool = False) -> list[int]:
    """Up to `limit` memory ids, tier by tier (see the module docstring)."""
    max_matches = recall_setting("memory_retrieval.lexical_max_matches") if all_lexemes else None
    found: list[int] = []
    with connection.cursor() as cursor:
        for tsquery in match_tiers(lexemes, all_lexemes=all_lexemes):
            if len(found) >= limit:
                break
            cursor.execute(*ranked_matches(eligible, tsquery, limit - len(found), exclude=found,
                                           max_matches=max_matches))
            found += [row[0] for row in cursor.fetchall()]
    return found
