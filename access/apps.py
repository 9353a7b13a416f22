from django.apps import AppConfig


class AccessConfig(AppConfig):
    name = "access"
    verbose_name = "Access"

    def ready(self):
        from django_q.models import Schedule

        from access.purgers import AccessTables
        from access.throttling import forget_idle_counts
        from recall_site.purging import register
        from recall_site.schedules import every

        register(AccessTables())
        every("forget idle rate-limit counts", forget_idle_counts, Schedule.HOURLY)
