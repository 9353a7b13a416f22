from django.apps import AppConfig


class AuditConfig(AppConfig):
    name = "audit"
    verbose_name = "Access and audit"

    def ready(self):
        from audit.purgers import AuditPurger
        from recall_site.purging import register

        register(AuditPurger())
