"""WSGI entry point (gunicorn recall_site.wsgi)."""
import os
import threading

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "recall_site.settings")
application = get_wsgi_application()


def _warm_semantic_canary():
    # Load the embedding model and run the startup canary before the first search needs it.
    from memories.readiness import semantic_status

    semantic_status()


threading.Thread(target=_warm_semantic_canary, name="semantic-canary", daemon=True).start()
