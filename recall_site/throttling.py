"""API rate limits (DRF throttles): one per API token, one per client IP.

Rates come from Recall's config (`security.api_rate_per_token`,
`security.api_rate_per_ip`, e.g. "6000/minute"; "" turns a limit off) and are
read on every request, so an override applies at once. An exceeded limit is a
429 with Retry-After and a JSON body. Counts live in Django's default cache:
the local-memory cache counts per web process, so with four gunicorn workers a
client may get up to four times the rate; point CACHES at a shared cache to
count across processes. The MCP endpoint (`/mcp`, outside DRF) counts against the
same limits through `refusal_wait`.
"""
from rest_framework.throttling import SimpleRateThrottle

from recall_site.client_ip import client_ip
from recall_site.config import recall_setting


class _ConfiguredRateThrottle(SimpleRateThrottle):
    config_key = ""

    def get_rate(self):
        return recall_setting(f"security.{self.config_key}") or None


class TokenRateThrottle(_ConfiguredRateThrottle):
    """Per API token: DRF gives an account one token, so the account's requests are counted."""

    scope = "token"
    config_key = "api_rate_per_token"

    def get_cache_key(self, request, view):
        if not request.user or not request.user.is_authenticated:
            return None
        return self.cache_format % {"scope": self.scope, "ident": request.user.pk}


class IPRateThrottle(_ConfiguredRateThrottle):
    """Per client IP, signed in or not."""

    scope = "ip"
    config_key = "api_rate_per_ip"

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": client_ip(request)}


def refusal_wait(request) -> float | None:
    """Seconds to wait if a rate limit refuses this request, else None (and the request is counted), as DRF
    checks its throttles; `request` needs `user` and `META` only, so a non-DRF endpoint can ask too."""
    waits = [throttle.wait() for throttle in (TokenRateThrottle(), IPRateThrottle())
             if not throttle.allow_request(request, None)]
    return max(wait or 0.0 for wait in waits) if waits else None
