from django.apps import AppConfig


class IngestConfig(AppConfig):
    """Ingest (the write pipeline, background ingest jobs, remember_memory, the ingest and remember API,
    `import_transcript`): no models of its own (IngestJob is memories'), above memories."""
    name = "ingest"
    verbose_name = "Ingest"

    def ready(self):
        from django_q.models import Schedule

        from ingest.pipeline.names_in_text import place_names
        from ingest.tasks import resume_ingest_jobs
        from recall_site.schedules import every
        from recall_site.startup import on_warm_up

        every("resume background ingests", resume_ingest_jobs, Schedule.MINUTES, 1)
        on_warm_up(place_names)  # the gazetteer, read once: not in the first ingest's time
