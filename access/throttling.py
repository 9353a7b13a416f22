"""API rate limits (DRF throttles): one per API token, one per client IP, counted in PostgreSQL so every web
process and every host shares one count.

Rates come from Recall's config (`security.api_rate_per_token`, `security.api_rate_per_ip`, e.g.
"6000/minute"; "" turns a limit off) and are read on every request, so an override applies at once. Each
limit is a token bucket kept as one number per key, the generic cell rate algorithm: `tat`, the moment the
bucket would be full again. A request adds `period / count` seconds to it, and is refused when that would
put `tat` more than `period` past now. A full bucket lets `count` requests through at once, then one every
`period / count` seconds, and Retry-After is when the next one fits. Both limits are taken in one statement
(a refused request is not counted), with PostgreSQL's clock. An exceeded limit is a 429 with Retry-After and
a JSON body. The MCP endpoint (`/mcp`, outside DRF) counts against the same limits through `refusal_wait`.
Rows of idle keys go in `forget_idle_counts` (hourly).
"""
from django.db import DatabaseError, connection
from rest_framework.throttling import BaseThrottle, SimpleRateThrottle

from access.models import RateLimitCount
from recall_site.client_ip import client_ip
from recall_site.config import recall_setting

TABLE = RateLimitCount._meta.db_table


def _limits(request) -> list[tuple[str, int, int]]:
    """(key, count, period seconds) of each configured limit that applies to this request."""
    limits = []
    user = getattr(request, "user", None)
    for scope, setting, ident in (
            ("token", "api_rate_per_token", user.pk if user is not None and user.is_authenticated else None),
            ("ip", "api_rate_per_ip", client_ip(request))):
        rate = recall_setting(f"security.{setting}")
        if rate and ident is not None:
            count, period = SimpleRateThrottle.parse_rate(None, rate)
            limits.append((f"{scope}:{ident}", count, period))
    return limits


def _take(limits: list[tuple[str, int, int]]) -> float | None:
    """Count one request against every limit if all of them let it through; else the seconds until they
    would (nothing counted)."""
    if not limits:
        return None
    # One upsert for all the keys: each row's new tat is its old one (or now) plus its interval, written only
    # if it stays within `period` of now (EXCLUDED.tat - EXCLUDED.interval is now).
    rows = ", ".join(["(%s, %s::float8, %s::float8)"] * len(limits))
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {TABLE} AS r (key, tat, interval, period) "
            f"SELECT key, extract(epoch FROM clock_timestamp())::float8 + interval, interval, period "
            f"FROM (VALUES {rows}) AS v (key, interval, period) "
            "ON CONFLICT (key) DO UPDATE SET tat = GREATEST(r.tat, EXCLUDED.tat - EXCLUDED.interval) "
            "+ EXCLUDED.interval, interval = EXCLUDED.interval, period = EXCLUDED.period "
            "WHERE GREATEST(r.tat, EXCLUDED.tat - EXCLUDED.interval) <= EXCLUDED.tat - 2 * EXCLUDED.interval "
            "+ EXCLUDED.period RETURNING key",
            [value for key, count, period in limits for value in (key, period / count, period)])
        taken = {key for key, in cursor.fetchall()}
        if len(taken) == len(limits):
            return None
        # Refused: what the others took goes back; the wait is until the refusing buckets have room.
        cursor.execute(f"UPDATE {TABLE} SET tat = tat - interval WHERE key = ANY(%s)", [sorted(taken)])
        refused = [key for key, _, _ in limits if key not in taken]
        cursor.execute(f"SELECT max(tat + interval - period - extract(epoch FROM clock_timestamp())::float8) "
                       f"FROM {TABLE} WHERE key = ANY(%s)", [refused])
        return max(cursor.fetchone()[0], 0.0)


def refusal_wait(request) -> float | None:
    """Seconds to wait if a rate limit refuses this request, else None (and the request is counted); `request`
    needs `user` and `META` only, so a non-DRF endpoint can ask too. With the database down nothing is
    counted: the request goes on to its own answer (ready's report, or the 503 of whatever needs the database)."""
    try:
        return _take(_limits(request))
    except DatabaseError:
        return None


class RateLimits(BaseThrottle):
    """Both limits, one statement per request (DEFAULT_THROTTLE_CLASSES)."""

    def allow_request(self, request, view):
        self.refused_for = refusal_wait(request)
        return self.refused_for is None

    def wait(self):
        return self.refused_for


def forget_idle_counts() -> int:
    """Drop the rows of keys whose buckets are full again (nothing to remember); how many went."""
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {TABLE} WHERE tat < extract(epoch FROM clock_timestamp())")
        return cursor.rowcount
