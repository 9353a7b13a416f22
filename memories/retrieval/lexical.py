"""Lexical retriever: PostgreSQL full-text search over the generated `search_vector` (GIN index).

The query's english lexemes (stemmed, stop words dropped) are matched as an OR,
so a natural question ("When did Caroline go to the LGBTQ support group?") finds
the memory that shares its telling words even though it shares few of the others.
PostgreSQL's ts_rank knows nothing of word rarity, so matches are ranked by the
summed inverse document frequency of the lexemes they hold, counted among the
memories the search may see (`ln(1 + (cap + 1) / df)`): "lgbtq" outweighs
"go". ts_rank_cd (frequency and proximity) breaks ties.

Each lexeme's document frequency is counted when it is rare (up to EXACT_UP_TO
memories); above that PostgreSQL's estimate from the search vector's statistics
(most_common_elems, kept by ANALYZE) stands in, as counting would read the lexeme's
whole GIN posting list. A lexeme shared by more memories than the cap is treated like a stop word and
left out of the OR (it still adds its small weight to the ranking): such a match
says nothing about which of them is relevant, and ranking thousands of rows for it
cost 15-50 ms at 100k memories. A query made only of such words is left to the
vectors or, without them, finds the memories holding all of its words.
"""
import math
from dataclasses import dataclass

from django.db import connection

from memories.retrieval.eligible import Eligible
from recall_site.config import recall_setting

MAX_LEXEMES = 12
EXACT_UP_TO = 200  # lexemes held by at most this many eligible memories are counted, not estimated


def query_lexemes(query: str) -> list[str]:
    """The query as PostgreSQL indexes text: english lexemes, stop words removed."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT tsvector_to_array(to_tsvector('english', %s))", [query])
        return list(cursor.fetchone()[0])[:MAX_LEXEMES]


def quoted(lexeme: str) -> str:
    """A lexeme as a raw tsquery term ('it''s')."""
    return "'" + lexeme.replace("'", "''") + "'"


def lexeme_frequencies(eligible: Eligible, lexemes: list[str], cap: int) -> dict[str, int]:
    """How many eligible memories hold each lexeme. Rare ones are counted (up to EXACT_UP_TO + 1, one
    statement); for the others the planner's estimate stands in: counting reads a lexeme's whole GIN posting
    list (~1.5 ms per 8,000 rows at 100k memories), where a plan costs 0.3 ms, and a weight changes little
    between 200 and thousands of holders."""
    estimates = {}
    with connection.cursor() as cursor:
        for lexeme in lexemes:
            sql, params = eligible.query("1", where="m.search_vector @@ to_tsquery('simple', %(term)s)",
                                         term=quoted(lexeme))
            cursor.execute(f"EXPLAIN (FORMAT JSON) {sql}", params)
            estimates[lexeme] = int(cursor.fetchone()[0][0]["Plan"]["Plan Rows"])
        counted = [lexeme for lexeme in lexemes if estimates[lexeme] <= cap]
        if not counted:
            return estimates
        inner, params = eligible.query("1", where="m.search_vector @@ to_tsquery('simple', term.query)",
                                       limit=min(cap, EXACT_UP_TO) + 1)
        cursor.execute(f"SELECT term.lexeme, (SELECT count(*) FROM ({inner}) AS hits) "
                       "FROM unnest(%(lexemes)s::text[], %(queries)s::text[]) AS term(lexeme, query)",
                       {**params, "lexemes": counted, "queries": [quoted(x) for x in counted]})
        for lexeme, count in cursor.fetchall():
            estimates[lexeme] = count if count <= EXACT_UP_TO else max(count, estimates[lexeme])
    return estimates


def weighted_match(weights: dict[str, float], params: dict) -> str:
    """SQL for the summed weight of the lexemes `m.search_vector` holds (0 for none); adds its parameters."""
    terms = []
    for index, (lexeme, weight) in enumerate(weights.items()):
        params[f"term_{index}"], params[f"weight_{index}"] = quoted(lexeme), weight
        terms.append(f"CASE WHEN m.search_vector @@ to_tsquery('simple', %(term_{index})s)"
                     f" THEN %(weight_{index})s::float8 ELSE 0 END")
    return " + ".join(terms) or "0"


@dataclass(frozen=True)
class QueryTerms:
    """The query's lexemes that eligible memories hold, each weighted by its rarity among them; the `common`
    ones are held by more than `memory_retrieval.lexical_max_matches` memories."""

    weights: dict[str, float]
    common: frozenset[str] = frozenset()

    @property
    def informative(self) -> list[str]:
        return [lexeme for lexeme in self.weights if lexeme not in self.common]


def query_terms(eligible: Eligible, lexemes: list[str]) -> QueryTerms:
    """Weigh each lexeme by inverse document frequency, ln(1 + (cap + 1) / df) (see the module docstring)."""
    if not lexemes:
        return QueryTerms({})
    cap = recall_setting("memory_retrieval.lexical_max_matches")
    frequencies = {lexeme: df for lexeme, df in lexeme_frequencies(eligible, lexemes, cap).items() if df}
    return QueryTerms({lexeme: math.log(1 + (cap + 1) / df) for lexeme, df in frequencies.items()},
                      frozenset(lexeme for lexeme, df in frequencies.items() if df > cap))


def ranked_matches(eligible: Eligible, terms: QueryTerms, limit: int, *, every_word: bool = False) -> tuple[str, dict]:
    """(sql, params): ids of eligible memories holding any informative lexeme (with `every_word`: all the
    lexemes), highest summed weight first, then ts_rank_cd."""
    words = list(terms.weights) if every_word else terms.informative
    params = {"tsquery": (" & " if every_word else " | ").join(quoted(lexeme) for lexeme in words)}
    score = weighted_match(terms.weights, params)
    rank = "ts_rank_cd(m.search_vector, to_tsquery('simple', %(tsquery)s))"
    return eligible.query("m.id", where="m.search_vector @@ to_tsquery('simple', %(tsquery)s)",
                          order=f"{score} DESC, {rank} DESC, m.id DESC", limit=limit, **params)


def lexical_candidates(eligible: Eligible, terms: QueryTerms, limit: int, *, with_vectors: bool) -> list[int]:
    """Up to `limit` ids of memories holding an informative lexeme, rarest matches first. A query made only of
    common words is left to the vectors; without them, the memories holding all of its words are ranked."""
    if terms.informative:
        query = ranked_matches(eligible, terms, limit)
    elif terms.weights and not with_vectors:
        query = ranked_matches(eligible, terms, limit, every_word=True)
    else:
        return []
    with connection.cursor() as cursor:
        cursor.execute(*query)
        return [row[0] for row in cursor.fetchall()]
