"""Lexical retriever: PostgreSQL full-text search over the generated `search_vector` (GIN index).

The query's english lexemes (stemmed, stop words dropped) are matched as an OR,
so a natural question ("When did Caroline go to the LGBTQ support group?") finds
the memory that shares its telling words even though it shares few of the others.
PostgreSQL's ts_rank knows nothing of word rarity, so matches are ranked by the
summed inverse document frequency of the lexemes they hold, counted among the
memories the search may see (`ln(1 + (cap + 1) / df)`): "lgbtq" outweighs
"go". ts_rank_cd (frequency and proximity) breaks ties.

Each lexeme's document frequency is counted up to `memory_retrieval.lexical_max_matches`
(an index scan stopping after cap + 1 rows), unless PostgreSQL's statistics of the
search vector (most_common_elems, kept by ANALYZE) put it far above the cap: then
the planner's estimate stands in, as counting would read the lexeme's whole GIN
posting list. With vectors, a lexeme shared by more
memories than that is treated like a stop word and left out of the OR: such a
match says nothing about which of them is relevant, and ranking thousands of rows
for it cost 15-20 ms at 100k memories. Without vectors full text is the main
retriever and keeps every lexeme.
"""
import math

from django.db import connection

from memories.retrieval.eligible import Eligible
from recall_site.config import recall_setting

MAX_LEXEMES = 12


def query_lexemes(query: str) -> list[str]:
    """The query as PostgreSQL indexes text: english lexemes, stop words removed."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT tsvector_to_array(to_tsvector('english', %s))", [query])
        return list(cursor.fetchone()[0])[:MAX_LEXEMES]


def quoted(lexeme: str) -> str:
    """A lexeme as a raw tsquery term ('it''s')."""
    return "'" + lexeme.replace("'", "''") + "'"


def lexeme_frequencies(eligible: Eligible, lexemes: list[str], cap: int) -> dict[str, int]:
    """How many eligible memories hold each lexeme: the planner's estimate for a lexeme it expects in more
    than `cap` of them (counting would read its whole GIN posting list: ~1.5 ms per 8,000 rows at 100k
    memories, where a plan costs 0.3 ms), else counted up to cap + 1 (one statement)."""
    frequencies = {}
    with connection.cursor() as cursor:
        for lexeme in lexemes:
            sql, params = eligible.query("1", where="m.search_vector @@ to_tsquery('simple', %(term)s)",
                                         term=quoted(lexeme))
            cursor.execute(f"EXPLAIN (FORMAT JSON) {sql}", params)
            estimate = int(cursor.fetchone()[0][0]["Plan"]["Plan Rows"])
            if estimate > cap:
                frequencies[lexeme] = estimate
        counted = [lexeme for lexeme in lexemes if lexeme not in frequencies]
        if counted:
            inner, params = eligible.query("1", where="m.search_vector @@ to_tsquery('simple', term.query)",
                                           limit=cap + 1)
            cursor.execute(f"SELECT term.lexeme, (SELECT count(*) FROM ({inner}) AS hits) "
                           "FROM unnest(%(lexemes)s::text[], %(queries)s::text[]) AS term(lexeme, query)",
                           {**params, "lexemes": counted, "queries": [quoted(x) for x in counted]})
            frequencies.update(cursor.fetchall())
    return frequencies


def weighted_match(weights: dict[str, float], params: dict) -> str:
    """SQL for the summed weight of the lexemes `m.search_vector` holds (0 for none); adds its parameters."""
    terms = []
    for index, (lexeme, weight) in enumerate(weights.items()):
        params[f"term_{index}"], params[f"weight_{index}"] = quoted(lexeme), weight
        terms.append(f"CASE WHEN m.search_vector @@ to_tsquery('simple', %(term_{index})s)"
                     f" THEN %(weight_{index})s::float8 ELSE 0 END")
    return " + ".join(terms) or "0"


def ranked_matches(eligible: Eligible, weights: dict[str, float], limit: int) -> tuple[str, dict]:
    """(sql, params): ids of eligible memories holding any of the weighted lexemes, highest summed weight first."""
    params = {"tsquery": " | ".join(quoted(lexeme) for lexeme in weights)}
    score = weighted_match(weights, params)
    rank = "ts_rank_cd(m.search_vector, to_tsquery('simple', %(tsquery)s))"
    return eligible.query("m.id", where="m.search_vector @@ to_tsquery('simple', %(tsquery)s)",
                          order=f"{score} DESC, {rank} DESC, m.id DESC", limit=limit, **params)


def lexeme_weights(eligible: Eligible, lexemes: list[str], *, drop_common: bool = False) -> dict[str, float]:
    """{lexeme: inverse document frequency} of the query lexemes the eligible memories hold (see the module
    docstring); with `drop_common`, lexemes held by more than lexical_max_matches memories are left out."""
    if not lexemes:
        return {}
    cap = recall_setting("memory_retrieval.lexical_max_matches")
    frequencies = lexeme_frequencies(eligible, lexemes, cap)
    return {lexeme: math.log(1 + (cap + 1) / df) for lexeme, df in frequencies.items()
            if df and not (drop_common and df > cap)}


def lexical_candidates(eligible: Eligible, weights: dict[str, float], limit: int) -> list[int]:
    """Up to `limit` memory ids sharing a weighted lexeme, rarest matches first."""
    if not weights:
        return []
    with connection.cursor() as cursor:
        cursor.execute(*ranked_matches(eligible, weights, limit))
        return [row[0] for row in cursor.fetchall()]
