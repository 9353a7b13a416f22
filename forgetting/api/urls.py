from django.urls import path

from forgetting.api import views

urlpatterns = [
    path("delete", views.delete_view, name="api-delete"),
]
