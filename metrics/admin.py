from django.contrib import admin

from metrics.models import MetricSnapshot


@admin.register(MetricSnapshot)
class MetricSnapshotAdmin(admin.ModelAdmin):
    list_display = ["user_id", "week_start", "created_at"]
    search_fields = ["user_id"]
