"""What PostgreSQL's planner statistics say about a user's partition, read once per process every few minutes.

Word rarity reads the lexemes' shares from them (lexical.py); the eligible condition reads from them whether
a user is planned apart (`planned_apart`), and the semantic retriever whether they know the user at all
(`listed_user`: semantic.scanned_exactly).

A search's statements run prepared (settings.py), and PostgreSQL keeps a generic plan for a statement once
five custom plans cost about as much. A generic plan is costed for `user_id = $1` as the partition's average
user (its rows over its distinct users), not for the one asking. In a partition of 155 users on the
2M-memory bench (bench/tenants.py), the statements the small users had asked made a 100k-memory user's
nearest query a B-tree scan of all 75,220 rows the gate let through: 81 ms, where the HNSW scan its own plan
takes ran in 1.7 ms. A user whose rows PostgreSQL knows to be many times the average (its statistics list
the user among the partition's most common values) has the id written into the statements' text, so the
plan PostgreSQL keeps for them is costed for their rows.
"""
import time

from django.db import connection

STATISTICS_SECONDS = 300  # how long a process reuses a table's statistics and row estimates
# A user holding over this many times the rows of the partition's average user is planned apart.
APART_ABOVE_AVERAGE = 2.0
_statistics: dict = {}


def cached(key, compute):
    """compute(), reused for STATISTICS_SECONDS: planner statistics only change when the table is analysed."""
    now = time.monotonic()
    if key not in _statistics or now - _statistics[key][0] > STATISTICS_SECONDS:
        if len(_statistics) > 1000:
            _statistics.clear()
        _statistics[key] = (now, compute())
    return _statistics[key][1]


def forget_statistics() -> None:
    """Drop this process's cached statistics (after an ANALYZE that should count at once)."""
    _statistics.clear()


def planned_rows(sql: str, params: dict) -> float:
    """The rows PostgreSQL's planner estimates `sql` returns (EXPLAIN, nothing run)."""
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN (FORMAT JSON) {sql}", params)
        return float(cursor.fetchone()[0][0]["Plan"]["Plan Rows"])


def database() -> tuple[str, str]:
    """The key of the database the default connection is on, for the caches' keys."""
    return connection.alias, connection.settings_dict["NAME"]


def planned_apart(table: str, user_id: str) -> bool:
    """Whether `user_id`'s share of `table` (a partition), as its statistics have it, is over
    APART_ABOVE_AVERAGE times the share PostgreSQL's generic plan assumes for any user."""
    generic, shares = _user_shares(table)
    return shares.get(user_id, 0.0) > APART_ABOVE_AVERAGE * generic


def listed_user(table: str, user_id: str) -> bool:
    """Whether `table`'s statistics list `user_id` among its most common values: not a small user (or a
    partition without statistics yet), so the planner's row estimates are the user's own."""
    return user_id in _user_shares(table)[1]


def _user_shares(table: str) -> tuple[float, dict[str, float]]:
    """Cached: (the share of `table`'s rows PostgreSQL estimates for `user_id = $1` when it does not know the
    user, {user: share} of the users listed among the most common values); (1.0, {}) without statistics."""
    return cached((database(), "user shares", table), lambda: _read_user_shares(table))


def _read_user_shares(table: str) -> tuple[float, dict[str, float]]:
    """`_user_shares`, read from pg_stats and pg_class."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT s.n_distinct, s.null_frac, s.most_common_vals::text::text[], s.most_common_freqs,"
                       " c.reltuples FROM pg_stats s JOIN pg_class c ON c.oid = to_regclass(%(table)s)"
                       " WHERE s.schemaname = current_schema() AND s.tablename = %(table)s AND s.attname = 'user_id'",
                       {"table": table})
        row = cursor.fetchone()
    if row is None or not row[2]:
        return 1.0, {}
    distinct, nulls, users, shares, rows = row
    if distinct < 0:  # a share of the rows, as ANALYZE writes it for a column whose distinct values grow with them
        distinct = -distinct * max(rows, 1)
    # As PostgreSQL's var_eq_non_const: the non-null share over the distinct values, at most the top one's.
    generic = min((1.0 - nulls) / max(distinct, 1.0), max(shares))
    return generic, dict(zip(users, shares))
