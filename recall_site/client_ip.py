"""The client's IP address, for API throttling and login lockout alike.

X-Forwarded-For is trusted only as far as `security.trusted_proxy_count` says:
with 0 (the default) it is ignored, so a client cannot dodge a limit by sending
the header itself; behind one proxy that appends the address it saw, the last
entry is the client.
"""
from recall_site.config import recall_setting


def client_ip(request) -> str:
    remote = request.META.get("REMOTE_ADDR") or ""
    proxies = recall_setting("security.trusted_proxy_count")
    forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
    if proxies <= 0 or not forwarded:
        return remote
    return forwarded[-min(proxies, len(forwarded))]
