from django.urls import path

from console.api import views

urlpatterns = [
    path("health", views.health_view, name="api-health"),
    path("ready", views.ready_view, name="api-ready"),
]
