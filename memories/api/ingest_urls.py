from django.urls import path

from memories.api import ingest

urlpatterns = [
    path("ingest", ingest.ingest_view, name="api-ingest"),
    path("ingest/<ingest_job_id:job_id>", ingest.ingest_job_view, name="api-ingest-job"),
]
