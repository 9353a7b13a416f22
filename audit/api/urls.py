from django.urls import path

from audit.api import views

urlpatterns = [
    path("delete", views.delete_view, name="api-delete"),
    path("audit", views.audit_log_view, name="api-audit-log"),
    path("metrics", views.metrics_view, name="api-metrics"),
    path("memories/<int:memory_id>/restore", views.memory_restore_view, name="api-memory-restore"),
]
