"""Console pages that search: the memory browser and the profile page."""
from django.urls import path

from search.views import browse, profile

urlpatterns = [
    path("memories/", browse.memory_browser, name="memories"),
    path("memories/<int:pk>/", browse.memory_detail, name="memory-detail"),
    path("memories/<int:pk>/restore/", browse.memory_restore_view, name="memory-restore"),
    path("profile/", profile.profile, name="profile"),
]
