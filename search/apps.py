from django.apps import AppConfig
from django.db import connections
from django.db.backends.signals import connection_created
from django.db.models.signals import post_migrate


def _warm_up_search() -> None:
    """The query-domain centroids, when semantic retrieval is usable (memories' step loaded the model)."""
    from memories.readiness import semantic_retrieval_ready
    from search.retrieval.gating import query_domain_centroids

    if semantic_retrieval_ready():
        query_domain_centroids()


def _session_settings_after_migrate(sender, using, **kwargs) -> None:
    """A connection opened before `migrate` created the vector extension gets its session settings now (sent
    once per app with models; only the first finds them missing)."""
    from search.retrieval.semantic import use_session_settings

    use_session_settings(None, connections[using])


class SearchConfig(AppConfig):
    """Search (retrieval, hydration, the search/hydrate/turn API, the console pages that search): no models of
    its own, above memories."""
    name = "search"
    verbose_name = "Search"

    def ready(self):
        from recall_site.startup import on_warm_up
        from search.retrieval.semantic import use_session_settings

        on_warm_up(_warm_up_search)
        connection_created.connect(use_session_settings, dispatch_uid="recall-hnsw-session-settings")
        post_migrate.connect(_session_settings_after_migrate, dispatch_uid="recall-hnsw-after-migrate")
