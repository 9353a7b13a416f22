from django.apps import AppConfig


class AuditConfig(AppConfig):
    name = "audit"
    verbose_name = "Access and audit"

    def ready(self):
        from django_q.models import Schedule

        from audit.purgers import AuditPurger
        from audit.tasks import purge_audit_events
        from recall_site.purging import register
        from recall_site.schedules import every

        register(AuditPurger())
        every("purge old audit events", purge_audit_events, Schedule.DAILY)
