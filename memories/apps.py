from django.apps import AppConfig
from django.db.backends.signals import connection_created


class MemoriesConfig(AppConfig):
    name = "memories"
    verbose_name = "Memories"

    def ready(self):
        from memories.purgers import MemoryPurger
        from recall_site.purging import register
        from recall_site.timestamps import use_c_timestamp_loader

        register(MemoryPurger())

        connection_created.connect(use_c_timestamp_loader, dispatch_uid="recall-c-timestamp-loader")
