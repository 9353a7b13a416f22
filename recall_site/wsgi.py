"""WSGI entry point (gunicorn recall_site.wsgi)."""
import os
import threading

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "recall_site.settings")
application = get_wsgi_application()


def _warm_up():
    from memories.readiness import warm_up

    warm_up()


# The model, the startup canary and the query-domain centroids load before the first search needs them.
threading.Thread(target=_warm_up, name="semantic-warm-up", daemon=True).start()
