"""WSGI entry point (gunicorn recall_site.wsgi; runserver): Django, with REMOTE_ADDR the client that
recall_site.client_ip trusts (the peer, or what a trusted proxy forwarded). No /mcp: that is ASGI."""
import os

from django.core.wsgi import get_wsgi_application

from recall_site.client_ip import forwarded_client
from recall_site.startup import start_serving_work

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "recall_site.settings")
django_application = get_wsgi_application()


def application(environ, start_response):
    environ["REMOTE_ADDR"] = forwarded_client(environ.get("REMOTE_ADDR", ""), environ.get("HTTP_X_FORWARDED_FOR", ""))
    return django_application(environ, start_response)


# What the apps registered to do before the first request needs it (the embedding model, the canary).
start_serving_work()
