"""Lexical retriever: PostgreSQL full-text search over the generated `search_vector` (GIN index).

A natural question ("When did Caroline go to the LGBTQ support group?") shares
only some of its words with the memory that answers it, so full text does not
ask for all of them. Each of the query's english lexemes (stemmed, stop words
dropped) is weighted by its rarity among the memories the search may see,
`ln(1 + (cap + 1) / df)`: "lgbtq" outweighs "go" (PostgreSQL's ts_rank knows
nothing of rarity). Candidates are the memories holding all the informative
lexemes, then those holding any of the rarest ones, by summed weight.

A lexeme held by more than `memory_retrieval.lexical_max_matches` (the cap)
memories is common: like a stop word it says nothing about which of them is
relevant, so it only adds its small weight to the ranking. The OR reads at most
cap rows (the rarest lexemes whose holders fit): ranking every holder of a few
mid-frequency words cost 15-50 ms at 100k memories. A query made only of common
words is left to the vectors or, without them, finds the memories holding all
of its words.
"""
import math
from dataclasses import dataclass, field

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
    """How many eligible memories hold each lexeme: counted up to cap + 1 (one statement), except where the
    planner expects more than `cap` holders. Counting those would read their whole GIN posting lists and cap + 1
    rows each, ~2 ms per common word at 100k memories, where a plan costs 0.3 ms. An estimate can be low for a
    lexeme missing from the statistics: that one is counted, as it should be."""
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


@dataclass(frozen=True)
class QueryTerms:
    """The query's lexemes that eligible memories hold, each weighted by its rarity among them; the `common`
    ones are held by more than `memory_retrieval.lexical_max_matches` memories."""

    weights: dict[str, float]
    common: frozenset[str] = frozenset()
    frequencies: dict[str, int] = field(default_factory=dict)  # holders per lexeme (counted or estimated)

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
                      frozenset(lexeme for lexeme, df in frequencies.items() if df > cap), frequencies)


def ranked_matches(eligible: Eligible, terms: QueryTerms, words: list[str], limit: int, *,
                   every_word: bool = False, exclude=()) -> tuple[str, dict]:
    """(sql, params): ids of eligible memories holding any of `words`, by the summed weight of the query lexemes
    they hold (newest first on a tie); with `every_word`, holding all of them, by ts_rank (they share the same
    words), among the first `lexical_max_matches` found: common words can be held together by thousands."""
    params = {"tsquery": (" & " if every_word else " | ").join(quoted(lexeme) for lexeme in words),
              "exclude": list(exclude)}
    where = "m.search_vector @@ to_tsquery('simple', %(tsquery)s) AND NOT m.id = ANY(%(exclude)s)"
    if not every_word:
        return eligible.query("m.id", where=where, order=f"{weighted_match(terms.weights, params)} DESC, m.id DESC",
                              limit=limit, **params)
    sql, params = eligible.query("m.id, ts_rank(m.search_vector, to_tsquery('simple', %(tsquery)s)) AS rank",
                                 where=where, limit=recall_setting("memory_retrieval.lexical_max_matches"), **params)
    return (f"SELECT id FROM ({sql}) AS held ORDER BY rank DESC, id DESC LIMIT %(ranked)s",
            {**params, "ranked": limit})


def within_budget(terms: QueryTerms, budget: int) -> list[str]:
    """The rarest informative lexemes whose holders add up to at most `budget` rows (at least the rarest)."""
    chosen, rows = [], 0
    for lexeme in sorted(terms.informative, key=lambda lexeme: (terms.frequencies[lexeme], lexeme)):
        if chosen and rows + terms.frequencies[lexeme] > budget:
            break
        chosen.append(lexeme)
        rows += terms.frequencies[lexeme]
    return chosen


def lexical_candidates(eligible: Eligible, terms: QueryTerms, limit: int, *, with_vectors: bool) -> list[int]:
    """Up to `limit` ids of memories sharing the query's informative lexemes: first those holding all of them,
    then those holding any of the rarest ones, by summed rarity. The OR reads at most lexical_max_matches
    rows: ranking every holder of a few mid-frequency words cost 15-50 ms at 100k memories, and the holders of
    only the commoner of them are the weakest matches. A query made only of common words is left to the
    vectors; without them, the memories holding all of its words are ranked."""
    if not terms.informative:
        if with_vectors or not terms.weights:
            return []
        return _ids(ranked_matches(eligible, terms, list(terms.weights), limit, every_word=True))
    found = []
    if len(terms.informative) > 1:
        found = _ids(ranked_matches(eligible, terms, terms.informative, limit, every_word=True))
    if len(found) < limit:
        budget = recall_setting("memory_retrieval.lexical_max_matches")
        words = within_budget(terms, budget)
        found += _ids(ranked_matches(eligible, terms, words, limit - len(found), exclude=found))
    return found


def _ids(query: tuple[str, dict]) -> list[int]:
    with connection.cursor() as cursor:
        cursor.execute(*query)
        return [row[0] for row in cursor.fetchall()]
