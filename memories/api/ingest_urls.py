from django.urls import path

from memories.api import ingest

urlpatterns = [
    path("ingest", ingest.ingest_view, name="api-ingest"),
]
