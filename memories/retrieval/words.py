"""The query's words as the database reads them, in one round trip at the start of a search.

Its english lexemes (the full-text retriever's terms, lexical.py) and the
phrases that name one of the user's entities (the graph's mentions, graph.py)
depend on nothing else, so one statement answers both: asked apart they were
two round trips before anything else could start, each slower while the model
runs on the other core.
"""
from dataclasses import dataclass

from django.db import connection

from entities.models import EntityKind
from memories.retrieval.graph import NAMES_SQL, query_phrases
from memories.retrieval.lexical import LEXEMES_SQL, MAX_LEXEMES


@dataclass(frozen=True)
class QueryWords:
    lexemes: list[str]
    mentions: list[str]  # as written in the query ("Sarah", "my manager"), not yet resolved


def query_words(user_id: str, query: str) -> QueryWords:
    phrases = query_phrases(query)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {LEXEMES_SQL}, ARRAY({NAMES_SQL})",
                       {"query": query, "user_id": user_id, "self": EntityKind.SELF.value,
                        "candidates": phrases.candidates})
        lexemes, names = cursor.fetchone()
    return QueryWords(list(lexemes)[:MAX_LEXEMES], phrases.mentions(set(names)))
