from django.apps import AppConfig
from django.db.backends.signals import connection_created


class MemoriesConfig(AppConfig):
    name = "memories"
    verbose_name = "Memories"

    def ready(self):
        from entities.signals import entity_merging
        from memories.entity_links import move_memory_links
        from memories.purgers import MemoryPurger
        from memories.readiness import warm_up
        from recall_site.purging import register
        from recall_site.startup import on_serve
        from recall_site.timestamps import use_c_timestamp_loader

        register(MemoryPurger())
        on_serve(warm_up)  # the model, the startup canary and the query-domain centroids, before the first search
        entity_merging.connect(move_memory_links, dispatch_uid="recall-memory-links-follow-merge")

        connection_created.connect(use_c_timestamp_loader, dispatch_uid="recall-c-timestamp-loader")
