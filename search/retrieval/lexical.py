"""Lexical retriever: PostgreSQL full-text search over the generated `search_vector`, read from the user's own
postings (GIN indexes of memories/user_words.py).

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

from memories.user_words import holds, user_token
from recall_site.config import recall_setting
from search.retrieval.eligible import Eligible
from search.retrieval.statistics import cached, database, planned_rows

MAX_LEXEMES = 12
USER_TOKEN = "%(eligible_user_token)s"  # the searching user's token among the full-text postings (user_words.py)


# The query as PostgreSQL indexes text: english lexemes, stop words removed (the first MAX_LEXEMES count).
LEXEMES_SQL = "tsvector_to_array(to_tsvector('english', %(query)s))"


def query_lexemes(query: str) -> list[str]:
    """The query's lexemes (LEXEMES_SQL); a search asks for them with its mentions (words.py)."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {LEXEMES_SQL}", {"query": query})
        return list(cursor.fetchone()[0])[:MAX_LEXEMES]


def quoted(lexeme: str) -> str:
    """A lexeme as a raw tsquery term ('it''s')."""
    return "'" + lexeme.replace("'", "''") + "'"


# PostgreSQL's selectivity of `tsvector @@ 'lexeme'` without statistics (tsearch's DEFAULT_TS_MATCH_SEL).
DEFAULT_MATCH_SHARE = 0.005
# Users with at most this many × lexical_max_matches eligible memories have every word counted, never estimated.
ALWAYS_COUNTED_BELOW = 25


def lexeme_frequencies(eligible: Eligible, lexemes: list[str], cap: int) -> dict[str, int]:
    """How many eligible memories hold each lexeme: counted up to cap + 1 (one statement), except where the
    planner's statistics put more than `cap` holders. Counting those would read their whole GIN posting lists
    and cap + 1 rows each, ~2 ms per common word at 100k memories. The estimate is the planner's own (eligible
    rows × the lexeme's share of `search_vector` in pg_stats), computed here for all lexemes at once instead of
    planning one query per lexeme. An estimate can be low for a lexeme missing from the statistics: that one
    is counted, as it should be. The statistics are the user's partition's, its users' words mixed: a user with
    at most ALWAYS_COUNTED_BELOW × cap eligible memories has every word counted (at most cap + 1 of the
    user's own rows each), so what other tenants write never changes how that user's words weigh."""
    rows = eligible_rows(eligible)
    frequencies = {}
    if rows > ALWAYS_COUNTED_BELOW * cap:
        shares, least = _lexeme_shares(eligible.table)
        unlisted = DEFAULT_MATCH_SHARE if least is None else min(DEFAULT_MATCH_SHARE, least / 2)
        for lexeme in lexemes:
            if (estimate := rows * shares.get(lexeme, unlisted)) > cap:
                frequencies[lexeme] = round(estimate)
    counted = [lexeme for lexeme in lexemes if lexeme not in frequencies]
    if counted:
        inner, params = eligible.query("1", where=holds("to_tsquery('simple', term.query)", USER_TOKEN),
                                       limit=cap + 1, eligible_user_token=user_token(eligible.user_id))
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT term.lexeme, (SELECT count(*) FROM ({inner}) AS hits) "
                           "FROM unnest(%(lexemes)s::text[], %(queries)s::text[]) AS term(lexeme, query)",
                           {**params, "lexemes": counted, "queries": [quoted(x) for x in counted]})
            frequencies.update(cursor.fetchall())
    return frequencies


def eligible_rows(eligible: Eligible) -> float:
    """The planner's estimate of how many memories the search may see (cached: statistics.py)."""
    return cached((database(), eligible.sql, tuple(sorted(eligible.params.items()))),
                  lambda: planned_rows(*eligible.query("1")))


def _lexeme_shares(table: str) -> tuple[dict[str, float], float | None]:
    """The most common lexemes of `search_vector` in `table` (the user's partition: autovacuum keeps its
    statistics, never the partitioned table's own) with the share of its memories holding each, and the
    smallest such share (None without statistics), from pg_stats."""
    def read():
        with connection.cursor() as cursor:
            cursor.execute("SELECT most_common_elems::text::text[], most_common_elem_freqs FROM pg_stats "
                           "WHERE schemaname = current_schema() AND tablename = %s AND attname = 'search_vector'",
                           [table])
            row = cursor.fetchone()
        if row is None or not row[0]:
            return {}, None
        elements, shares = row
        # PostgreSQL lists the least and the greatest share after the elements' own.
        least = shares[len(elements)] if len(shares) > len(elements) else min(shares)
        return dict(zip(elements, shares)), least

    return cached((database(), "lexeme shares", table), read)


def weighted_match(weights: dict[str, float], params: dict) -> str:
    """SQL for the summed weight of the lexemes `m.search_vector` holds (0 for none); adds its parameters. The
    lexemes and their weights are two array parameters, so the statement's text is the same however many words
    the query has: one prepared statement (and plan) for all of them, not one per count of words."""
    params["match_terms"], params["match_weights"] = [quoted(lexeme) for lexeme in weights], list(weights.values())
    return ("(SELECT coalesce(sum(term.weight), 0) FROM unnest(%(match_terms)s::text[], %(match_weights)s::float8[])"
            " AS term(query, weight) WHERE m.search_vector @@ to_tsquery('simple', term.query))")


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
                   every_word: bool = False, exclude: str = "", name: str = "tsquery") -> tuple[str, dict]:
    """(sql, params): ids of eligible memories holding any of `words`, by the summed weight of the query lexemes
    they hold (newest first on a tie); with `every_word`, holding all of them, by ts_rank (they share the same
    words), among the first `lexical_max_matches` found: common words can be held together by thousands.
    `exclude`: SQL giving an array of ids to leave out; `name`: the tsquery's parameter, so that two of these
    can share a statement."""
    params = {name: (" & " if every_word else " | ").join(quoted(lexeme) for lexeme in words)}
    params["eligible_user_token"] = user_token(eligible.user_id)
    where = holds(f"to_tsquery('simple', %({name})s)", USER_TOKEN)
    if exclude:
        where += f" AND NOT m.id = ANY(({exclude})::bigint[])"
    if not every_word:
        return eligible.query("m.id", where=where, order=f"{weighted_match(terms.weights, params)} DESC, m.id DESC",
                              limit=limit, **params)
    sql, params = eligible.query(f"m.id, ts_rank(m.search_vector, to_tsquery('simple', %({name})s)) AS rank",
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
    then those holding any of the rarest ones, by summed rarity (one statement). The OR reads at most
    lexical_max_matches rows: ranking every holder of a few mid-frequency words cost 15-50 ms at 100k memories,
    and the holders of only the commoner of them are the weakest matches. A query made only of common words is
    left to the vectors; without them, the memories holding all of its words are ranked."""
    if not terms.informative:
        if with_vectors or not terms.weights:
            return []
        return _ids(ranked_matches(eligible, terms, list(terms.weights), limit, every_word=True))
    rarest = within_budget(terms, recall_setting("memory_retrieval.lexical_max_matches"))
    if len(terms.informative) == 1:
        return _ids(ranked_matches(eligible, terms, rarest, limit))
    every_sql, every_params = ranked_matches(eligible, terms, terms.informative, limit, every_word=True,
                                             name="every_tsquery")
    any_sql, any_params = ranked_matches(eligible, terms, rarest, limit, exclude="SELECT ids FROM every")
    # ARRAY(subquery) keeps the subquery's order; the OR runs only when the AND left room.
    sql = (f"WITH every AS MATERIALIZED (SELECT ARRAY({every_sql}) AS ids) SELECT every.ids, CASE WHEN "
           f"cardinality(every.ids) < %(ranked)s THEN ARRAY({any_sql}) END FROM every")
    with connection.cursor() as cursor:
        cursor.execute(sql, {**every_params, **any_params})
        every, rest = cursor.fetchone()
    return every + (rest or [])[:limit - len(every)]


def needed_memories(eligible: Eligible, stems: tuple[str, ...], limit: int) -> list[int]:
    """Up to `limit` ids of eligible memories holding any of these stems, newest first: what a question needs to
    know whatever its own words (an allergy for a recipe question: gating.implied_needs)."""
    held = holds("to_tsquery('simple', %(needs_tsquery)s)", USER_TOKEN)
    return _ids(eligible.query("m.id", where=held, order="m.id DESC", limit=limit,
                               needs_tsquery=" | ".join(quoted(stem) for stem in stems),
                               eligible_user_token=user_token(eligible.user_id)))


def facts_of(eligible: Eligible, attributes: tuple[str, ...], limit: int) -> list[int]:
    """Up to `limit` ids of eligible facts with one of these attributes, newest first (gating.implied_attributes)."""
    return _ids(eligible.query("m.id", where="m.attribute = ANY(%(needed_attributes)s)", order="m.id DESC",
                               limit=limit, needed_attributes=list(attributes)))


def _ids(query: tuple[str, dict]) -> list[int]:
    with connection.cursor() as cursor:
        cursor.execute(*query)
        return [row[0] for row in cursor.fetchall()]
