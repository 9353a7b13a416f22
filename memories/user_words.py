"""Full text indexed per user: a memory's words beside a token of its own user, so a query reads one user's postings.

A GIN index over `search_vector` alone lists every tenant of a partition under a
word: a user's full-text query fetched every row of the partition holding its
words and dropped the other users' by their user_id. On the 2M-memory bench
that was 2,583 buffers (45-238 ms from a cold cache) for a 101-memory user
asking "medication I take every week", whose three words, ANDed, PostgreSQL
estimated at one row in the whole partition: the bench's tenants share their
texts, as real tenants share common words. The full-text indexes hold
`search_vector || '@<user_id>'` instead (`UserWords`), and a query ANDs that
token in (`holds`): GIN intersects the words' postings with the user's inside
the index, 17 buffers for the same query. Ranking still reads `search_vector`.

The token is added as a lexeme as it is ('@' + user_id, no parser, no
dictionary) and asked for the same way (a tsquery literal cast with ::tsquery,
`user_token`); the english parser never starts a lexeme with '@', so no word
of a memory can pass for a user's token.
"""
from django.contrib.postgres.search import SearchQueryCombinable, SearchQueryField, SearchVectorField
from django.db.models import F, Func, Value

TOKEN_PREFIX = "@"


def words_sql(vector: str, user: str) -> str:
    """SQL of the indexed expression, given the SQL of a memory's `search_vector` and `user_id`."""
    return f"({vector} || array_to_tsvector(ARRAY['{TOKEN_PREFIX}' || {user}]))"


def user_token(user_id: str) -> str:
    """The tsquery text of `user_id`'s token: one quoted lexeme, taken as written by ::tsquery."""
    token = TOKEN_PREFIX + user_id
    return "'" + token.replace("\\", "\\\\").replace("'", "''") + "'"


def holds(tsquery_sql: str, token_sql: str, alias: str = "m") -> str:
    """SQL: memory `alias` holds the words of `tsquery_sql`, looked up among its user's postings; `token_sql`
    gives that user's `user_token` (a statement parameter)."""
    column = f"{alias}." if alias else ""
    return f"{words_sql(column + 'search_vector', column + 'user_id')} @@ (({tsquery_sql}) && ({token_sql})::tsquery)"


class UserWords(Func):
    """The expression the full-text indexes hold (memories.models), for the ORM: `words_sql`."""

    output_field = SearchVectorField()

    def __init__(self):
        super().__init__(F("search_vector"), F("user_id"))

    def as_sql(self, compiler, connection, **extra_context):
        (vector, vector_params), (user, user_params) = (compiler.compile(e) for e in self.get_source_expressions())
        return words_sql(vector, user), [*vector_params, *user_params]


class UserToken(SearchQueryCombinable, Func):
    """A user's token as a tsquery, to AND with a SearchQuery (`query & UserToken(user_id)`) for `UserWords`."""

    output_field = SearchQueryField()
    template = "%(expressions)s::tsquery"

    def __init__(self, user_id: str):
        super().__init__(Value(user_token(user_id)))
