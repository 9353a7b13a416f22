from django.urls import path

from metrics import views
from metrics.prometheus import prometheus_view

urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("metrics/", views.metrics, name="metrics"),
    path("metrics", prometheus_view, name="prometheus-metrics"),  # no slash: Prometheus' default path
]
