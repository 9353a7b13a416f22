from django.urls import path

from memories.api import views

urlpatterns = [
    path("memories", views.memory_list_view, name="api-memory-list"),
    path("memories/<int:memory_id>", views.memory_detail_view, name="api-memory-detail"),
    path("memories/<int:memory_id>/restore", views.memory_restore_view, name="api-memory-restore"),
    path("forget_memory", views.forget_memory_view, name="api-forget-memory"),
    path("profile", views.profile_view, name="api-profile"),
    path("update_user_profile", views.update_user_profile_view, name="api-update-user-profile"),
]
