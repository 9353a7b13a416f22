from django.apps import AppConfig


class MetricsConfig(AppConfig):
    name = "metrics"
    verbose_name = "Metrics"

    def ready(self):
        from django_q.models import Schedule

        from metrics.prometheus import register_state_collector
        from metrics.purgers import MetricsTables
        from metrics.tasks import snapshot_weekly_metrics
        from recall_site.purging import register
        from recall_site.schedules import every

        register(MetricsTables())
        register_state_collector()
        every("weekly metric snapshots", snapshot_weekly_metrics, Schedule.WEEKLY)
