"""ASGI entry point (`uvicorn recall_site.asgi:application`): Django, and the MCP endpoint at /mcp.

The MCP app is named by the RECALL_MCP_APP setting (a dotted path to a factory) and imported when this
module loads, so recall_site imports no app. Lifespan events go to the MCP app, which runs the MCP
SDK's session manager in them; its startup also starts the work the apps registered for a serving
process (recall_site/startup.py), as the WSGI entry point does.
"""
import os

from django.conf import settings
from django.core.asgi import get_asgi_application
from django.utils.module_loading import import_string

from recall_site.startup import start_serving_work

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "recall_site.settings")


class McpRouter:
    """/mcp (and below it) to the MCP app, lifespan events to it too, everything else to Django."""

    def __init__(self, mcp_app, django_app, path: str = "/mcp"):
        self.mcp_app, self.django_app, self.path = mcp_app, django_app, path

    async def __call__(self, scope, receive, send):
        if scope["type"] == "lifespan":
            start_serving_work()
            return await self.mcp_app(scope, receive, send)
        path = scope.get("path", "")
        if path == self.path or path.startswith(self.path + "/"):
            return await self.mcp_app(scope, receive, send)
        return await self.django_app(scope, receive, send)


def asgi_application() -> McpRouter:
    django_app = get_asgi_application()  # sets Django up first
    return McpRouter(import_string(settings.RECALL_MCP_APP)(), django_app)


application = asgi_application()
