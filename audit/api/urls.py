from django.urls import path

from audit.api import views

urlpatterns = [
    path("audit", views.audit_log_view, name="api-audit-log"),
]
