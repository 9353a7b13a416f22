from django.urls import path

from ingest.api import ingest, remember

urlpatterns = [
    path("remember_memory", remember.remember_memory_view, name="api-remember-memory"),
    path("ingest", ingest.ingest_view, name="api-ingest"),
    path("ingest/<ingest_job_id:job_id>", ingest.ingest_job_view, name="api-ingest-job"),
]
