"""Routes for retrieval: /api/v1/search, /api/v1/hydrate, /api/v1/turn."""
from django.urls import path

from search.api import search

urlpatterns = [
    path("search", search.search_view, name="api-search"),
    path("hydrate", search.hydrate_view, name="api-hydrate"),
    path("turn", search.turn_view, name="api-turn"),
]
