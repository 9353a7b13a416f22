from django.urls import path

from metrics import views

urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("metrics/", views.metrics, name="metrics"),
]
