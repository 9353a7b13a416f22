from django.urls import path

from metrics.api import views

urlpatterns = [
    path("metrics", views.metrics_view, name="api-metrics"),
]
