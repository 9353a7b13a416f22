from django.urls import path

from forgetting import views

urlpatterns = [
    path("forget/", views.forget, name="forget"),
]
