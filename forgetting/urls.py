from django.urls import path

from forgetting import views

urlpatterns = [
    path("forget/", views.forget, name="forget"),
    path("forget/memories/", views.forget_memory_search, name="forget-memory-search"),
]
