"""WSGI entry point (gunicorn recall_site.wsgi)."""
import os

from django.core.wsgi import get_wsgi_application

from recall_site.startup import start_serving_work

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "recall_site.settings")
application = get_wsgi_application()

# What the apps registered to do before the first request needs it (the embedding model, the canary).
start_serving_work()
