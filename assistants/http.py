"""The streamable HTTP transport: the MCP tools at `/mcp` of the running server (recall_site/asgi.py).

Every request carries one of the REST API's tokens (`Authorization: Token <key>`; `Bearer <key>` is
taken too, for clients that can only send that) and a Host that Django's ALLOWED_HOSTS accepts, or
it is answered 401 / 400 before the MCP layer sees it; the REST API's rate limits (per token, per
client IP: access/throttling.py) count its requests too, and an exceeded one is a 429. Tool calls act for the `user_id` argument,
else the endpoint's `?user_id=`, else `default`, each checked against the account's grants.
The server is stateless (any worker answers any request) and answers JSON rather than SSE streams.
"""
import logging
import math
from types import SimpleNamespace

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import InterfaceError, OperationalError, close_old_connections
from django.http.request import split_domain_port, validate_host
from mcp.server.mcpserver import Context
from mcp.server.transport_security import TransportSecuritySettings
from rest_framework.exceptions import AuthenticationFailed
from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.responses import JSONResponse

from access.grants import actor_name
from access.scope import DEFAULT_USER_ID
from access.throttling import refusal_wait
from assistants.callers import Caller
from assistants.mcp_server import recall_mcp_server
from recall_site.authentication import TokenAuthentication
from recall_site.config import recall_setting

logger = logging.getLogger(__name__)
MCP_PATH = "/mcp"
ACCOUNT_KEY = "recall.account"  # where TokenRequired leaves the account in the ASGI scope
KEYWORDS = ("token", "bearer")


def mcp_http_app() -> Starlette:
    """A new ASGI app serving the MCP endpoint at /mcp; its lifespan runs the SDK's session manager
    (once per app), so the ASGI server must send it lifespan events."""
    app = recall_mcp_server(http_caller).streamable_http_app(
        streamable_http_path=MCP_PATH, stateless_http=True, json_response=True,
        max_request_body_size=recall_setting("security.max_body_bytes"),
        # TokenRequired checks the Host against ALLOWED_HOSTS, as Django does for every other path.
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
    )
    app.add_middleware(TokenRequired)
    return app


def http_caller(ctx: Context) -> Caller:
    request = ctx.request_context.request
    account = request.scope[ACCOUNT_KEY]
    return Caller(actor=actor_name(account), account=account,
                  default_user_id=request.query_params.get("user_id") or DEFAULT_USER_ID)


class TokenRequired:
    """ASGI middleware: an HTTP request needs an allowed Host and a valid API token."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = Headers(scope=scope)
        domain, _ = split_domain_port(headers.get("host", ""))
        if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
            return await _error(400, "bad_request", "Invalid Host header.")(scope, receive, send)
        limit = recall_setting("security.max_body_bytes")
        if (headers.get("content-length") or "0").isdigit() and int(headers.get("content-length") or 0) > limit:
            return await _error(413, "request_too_large", f"The request body is over {limit} bytes.")(
                scope, receive, send)
        try:
            account = await sync_to_async(_account_for)(headers.get("authorization", ""))
        except (OperationalError, InterfaceError):
            logger.error("database unavailable while checking an MCP token")  # no message: it may hold a DSN
            seconds = recall_setting("security.database_retry_after_seconds")
            response = _error(503, "database_unavailable", f"The database is unavailable; try again in {seconds} "
                                                           f"seconds.")
            response.headers["Retry-After"] = str(seconds)
            return await response(scope, receive, send)
        if account is None:
            response = _error(401, "not_authenticated", "An API token is required: Authorization: Token <key>.")
            response.headers["WWW-Authenticate"] = "Token"
            return await response(scope, receive, send)
        wait = await sync_to_async(refusal_wait)(_throttle_request(scope, headers, account))
        if wait is not None:
            seconds = max(math.ceil(wait), 1)
            response = _error(429, "throttled", f"Request was throttled. Expected available in {seconds} seconds.")
            response.headers["Retry-After"] = str(seconds)
            return await response(scope, receive, send)
        scope[ACCOUNT_KEY] = account
        await self.app(scope, receive, send)


def _account_for(authorization: str):
    """The active account whose token the header carries, else None (checked as the REST API checks it)."""
    keyword, _, key = authorization.strip().partition(" ")
    if keyword.lower() not in KEYWORDS or not key.strip():
        return None
    close_old_connections()
    try:
        account, _ = TokenAuthentication().authenticate_credentials(key.strip())
    except AuthenticationFailed:
        return None
    finally:
        close_old_connections()
    return account


def _throttle_request(scope, headers: Headers, account) -> SimpleNamespace:
    """What the throttles read of a request: the account and the client address (recall_site/client_ip.py)."""
    client = scope.get("client") or ("", 0)
    return SimpleNamespace(user=account, META={"REMOTE_ADDR": client[0],
                                               "HTTP_X_FORWARDED_FOR": headers.get("x-forwarded-for", "")})


def _error(status: int, error: str, message: str) -> JSONResponse:
    """The REST API's error shape (recall_site/api_errors.py)."""
    return JSONResponse({"error": error, "message": message}, status_code=status)
