"""The query's words as the database reads them, in one round trip at the start of a search.

Its english lexemes (the full-text retriever's terms, lexical.py), the phrases
that name one of the user's entities (the graph's mentions, graph.py) and the
entities each phrase or hinted name names directly (the resolver's first step)
depend on nothing else, so one statement answers them all: asked apart they
were two round trips, and one more per mention, before anything else could
start, each slower while the model runs on the other core. A mention the
direct matches do not settle (a first name, a typo) is resolved further by
the resolver's own queries.
"""
from dataclasses import dataclass

from django.db import connection

from entities.models import EntityKind
from entities.resolver import DirectMatches
from search.retrieval.graph import NAMES_SQL, query_phrases
from search.retrieval.lexical import LEXEMES_SQL, MAX_LEXEMES


@dataclass(frozen=True)
class QueryWords:
    lexemes: list[str]
    mentions: list[str]  # as written in the query ("Sarah", "my manager"), not yet resolved
    direct: DirectMatches  # of every phrase of the query and every hint


def query_words(user_id: str, query: str, hints=()) -> QueryWords:
    phrases = query_phrases(query)
    direct_sql, params = DirectMatches.query(user_id, [*hints, *phrases.written.values()])
    params.update(query=query, user_id=user_id, self=EntityKind.SELF.value, candidates=phrases.candidates)
    with connection.cursor() as cursor:
        # One row at least (the lexemes and names), then one per directly named entity.
        cursor.execute(f"WITH direct AS ({direct_sql}) SELECT {LEXEMES_SQL}, ARRAY({NAMES_SQL}), direct.*"
                       " FROM (SELECT 1) AS one LEFT JOIN direct ON true", params)
        rows = cursor.fetchall()
    lexemes, names = rows[0][:2]
    return QueryWords(list(lexemes)[:MAX_LEXEMES], phrases.mentions(set(names)),
                      DirectMatches([row[2:] for row in rows if row[2] is not None]))
