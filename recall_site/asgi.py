"""ASGI entry point (`uvicorn recall_site.asgi:application`): Django, and the MCP endpoint at /mcp.

The MCP app is named by the RECALL_MCP_APP setting (a dotted path to a factory) and imported when this
module loads, so recall_site imports no app. Lifespan events go to the MCP app, which runs the MCP
SDK's session manager in them; its startup also starts the work the apps registered for a serving
process (recall_site/startup.py), as the WSGI entry point does.

Every other request goes to Django's WSGI handler, run in one of RECALL_WEB_THREADS threads
(`WsgiBridge`): the whole request is one hop from the event loop into a thread and back. Django's own
ASGI handler made several per request (the sync middleware chain, each request signal, a fresh
thread per request), which cost ~4 ms a request served (`GET /api/v1/health` 4-6 ms instead of ~1;
docs/benchmarks.md, "The served path (session 12)"). The views are all synchronous, so nothing is lost.

Before either app sees a request, its client address is the one `recall_site.client_ip` trusts: the
TCP peer, or the forwarded address when the peer is one of RECALL_TRUSTED_PROXIES.
"""
import asyncio
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from tempfile import SpooledTemporaryFile

from django.conf import settings
from django.core.wsgi import get_wsgi_application
from django.utils.module_loading import import_string

from recall_site.client_ip import forwarded_client
from recall_site.startup import start_serving_work

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "recall_site.settings")

BUFFERED_BYTES = 256 * 1024  # an answer up to this size goes back in one piece, after the thread is done
STREAM_CHUNK_BYTES = 64 * 1024  # a larger one (an export, a static file) in chunks of about this size


class McpRouter:
    """/mcp (and below it) to the MCP app, lifespan events to it too, everything else to Django."""

    def __init__(self, mcp_app, django_app, path: str = "/mcp"):
        self.mcp_app, self.django_app, self.path = mcp_app, django_app, path

    async def __call__(self, scope, receive, send):
        if scope["type"] == "lifespan":
            start_serving_work()
            return await self.mcp_app(scope, receive, send)
        scope = with_trusted_client(scope)
        path = scope.get("path", "")
        if path == self.path or path.startswith(self.path + "/"):
            return await self.mcp_app(scope, receive, send)
        return await self.django_app(scope, receive, send)


def with_trusted_client(scope: dict) -> dict:
    """The scope with the client a trusted proxy forwarded (X-Forwarded-For), else as it came."""
    client = scope.get("client")
    if not client or not settings.RECALL_TRUSTED_PROXIES:
        return scope
    forwarded = b",".join(value for name, value in scope.get("headers", ()) if name == b"x-forwarded-for")
    host = forwarded_client(client[0], forwarded.decode("latin-1"))
    return scope if host == client[0] else {**scope, "client": (host, 0)}


class WsgiBridge:
    """An ASGI app that runs a WSGI app (Django's handler) in a bounded pool of threads, one hop a request."""

    def __init__(self, wsgi_app, threads: int):
        self.wsgi_app = wsgi_app
        self.executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="recall-web")

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            raise ValueError(f"Django answers HTTP only, not {scope['type']}")
        body = await read_body(receive)
        loop = asyncio.get_running_loop()
        answer = await loop.run_in_executor(self.executor, self.respond, wsgi_environ(scope, body), loop, send)
        if answer is not None:  # buffered: sent from here; a streamed answer was sent from the thread
            start, content = answer
            await send(start)
            await send({"type": "http.response.body", "body": content})

    def respond(self, environ: dict, loop, send):
        """Run the WSGI app in this thread: (start message, body) when the answer is small, else None
        once it has been streamed from here. Its close() (Django's request_finished) runs here too."""
        started = {}

        def start_response(status: str, headers: list, exc_info=None):
            started["status"], started["headers"] = int(status.split(" ", 1)[0]), headers

        def send_now(message: dict) -> None:
            asyncio.run_coroutine_threadsafe(send(message), loop).result()

        result = self.wsgi_app(environ, start_response)
        chunks, size, streaming = [], 0, False
        try:
            for chunk in result:
                chunks.append(chunk)
                size += len(chunk)
                if not streaming and size > BUFFERED_BYTES:
                    streaming = True
                    send_now(start_message(started["status"], started["headers"], None))
                if streaming and size >= STREAM_CHUNK_BYTES:
                    send_now({"type": "http.response.body", "body": b"".join(chunks), "more_body": True})
                    chunks, size = [], 0
            if streaming:
                send_now({"type": "http.response.body", "body": b"".join(chunks)})
        finally:
            if hasattr(result, "close"):
                result.close()
        if streaming:
            return None
        content = b"".join(chunks)
        return start_message(started["status"], started["headers"], len(content)), content


async def read_body(receive) -> SpooledTemporaryFile:
    """The whole request body, in memory up to FILE_UPLOAD_MAX_MEMORY_SIZE and on disk past it (as
    Django's ASGI handler keeps it); the request guard refuses one over its limit."""
    body = SpooledTemporaryFile(max_size=settings.FILE_UPLOAD_MAX_MEMORY_SIZE, mode="w+b")
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            break
        body.write(message.get("body", b""))
        if not message.get("more_body", False):
            break
    body.seek(0)
    return body


def wsgi_environ(scope: dict, body) -> dict:
    """PEP 3333's environ for an ASGI HTTP scope."""
    server = scope.get("server") or ("localhost", 80)
    client = scope.get("client") or ("", 0)
    root_path = scope.get("root_path", "")
    path = scope["path"]
    if root_path and path.startswith(root_path):
        path = path[len(root_path):]
    environ = {
        "REQUEST_METHOD": scope["method"], "SCRIPT_NAME": root_path.encode().decode("latin-1"),
        "PATH_INFO": path.encode().decode("latin-1"), "QUERY_STRING": scope.get("query_string", b"").decode("latin-1"),
        "SERVER_NAME": str(server[0]), "SERVER_PORT": str(server[1] or 80),
        "SERVER_PROTOCOL": f"HTTP/{scope.get('http_version', '1.1')}",
        "REMOTE_ADDR": client[0], "REMOTE_PORT": str(client[1]),
        "wsgi.version": (1, 0), "wsgi.url_scheme": scope.get("scheme", "http"), "wsgi.input": body,
        "wsgi.errors": sys.stderr, "wsgi.multithread": True, "wsgi.multiprocess": True, "wsgi.run_once": False,
    }
    for raw_name, raw_value in scope.get("headers", ()):
        name = raw_name.decode("latin-1").upper()
        if "_" in name:  # X_Forwarded_For would pass for X-Forwarded-For (WSGI servers drop these too)
            continue
        key = {"CONTENT-TYPE": "CONTENT_TYPE", "CONTENT-LENGTH": "CONTENT_LENGTH"}.get(name)
        key = key or "HTTP_" + name.replace("-", "_")
        value = raw_value.decode("latin-1")
        environ[key] = f"{environ[key]},{value}" if key in environ else value
    return environ


def start_message(status: int, headers: list, length: int | None) -> dict:
    # Django's WSGI handler writes Set-Cookie values with a leading space, which WSGI servers strip.
    encoded = [(name.lower().encode("latin-1"), value.strip().encode("latin-1")) for name, value in headers]
    if length is not None and status not in (204, 304) and not any(name == b"content-length" for name, _ in encoded):
        encoded.append((b"content-length", str(length).encode()))
    return {"type": "http.response.start", "status": status, "headers": encoded}


def asgi_application() -> McpRouter:
    django_app = WsgiBridge(get_wsgi_application(), settings.RECALL_WEB_THREADS)  # sets Django up first
    return McpRouter(import_string(settings.RECALL_MCP_APP)(), django_app)


application = asgi_application()
