from django.apps import AppConfig
from django.db.backends.signals import connection_created
from django.urls import register_converter


def _warm_up_worker(**_) -> None:
    from django.conf import settings

    from recall_site.startup import warm_up

    if settings.WORKER_PROCESS:
        warm_up()


class MemoriesConfig(AppConfig):
    name = "memories"
    verbose_name = "Memories"

    def ready(self):
        from django_q.models import Schedule
        from django_q.signals import post_spawn

        from entities.signals import entity_merging
        from memories.converters import IngestJobIdConverter
        from memories.entity_links import move_memory_links
        from memories.purgers import IngestJobPurger, MemoryPurger
        from memories.readiness import semantic_status
        from memories.tasks import (
            detect_entity_drift,
            embed_pending_memories,
            expire_and_purge_memories,
        )
        from recall_site.purging import register
        from recall_site.schedules import every
        from recall_site.startup import on_warm_up
        from recall_site.timestamps import use_c_timestamp_loader

        register(MemoryPurger())
        register(IngestJobPurger())
        register_converter(IngestJobIdConverter, "ingest_job_id")
        on_warm_up(semantic_status)  # the embedding model and the startup canary, before the first write or search
        # A worker-cluster process warms up too, before its first task: else a small ingest job waits ~10 s for
        # the model. (A sync django-q, as under the tests, sends post_spawn with every task: not warmed there.)
        post_spawn.connect(_warm_up_worker, dispatch_uid="recall-worker-warm-up")
        every("embed pending memories", embed_pending_memories, Schedule.MINUTES, 1)
        every("expire and purge memories", expire_and_purge_memories, Schedule.DAILY)
        every("detect entity drift", detect_entity_drift, Schedule.DAILY)
        entity_merging.connect(move_memory_links, dispatch_uid="recall-memory-links-follow-merge")

        connection_created.connect(use_c_timestamp_loader, dispatch_uid="recall-c-timestamp-loader")
