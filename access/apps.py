from django.apps import AppConfig


class AccessConfig(AppConfig):
    name = "access"
    verbose_name = "Access"

    def ready(self):
        from access.purgers import AccessTables
        from recall_site.purging import register

        register(AccessTables())
