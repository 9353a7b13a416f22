from django.apps import AppConfig
from django.db.backends.signals import connection_created


def _warm_up_search() -> None:
    """The query-domain centroids, when semantic retrieval is usable (memories' step loaded the model)."""
    from memories.readiness import semantic_retrieval_ready
    from search.retrieval.gating import query_domain_centroids

    if semantic_retrieval_ready():
        query_domain_centroids()


class SearchConfig(AppConfig):
    """Search (retrieval, hydration, the search/hydrate/turn API, the console pages that search): no models of
    its own, above memories."""
    name = "search"
    verbose_name = "Search"

    def ready(self):
        from recall_site.startup import on_warm_up
        from search.retrieval.semantic import use_session_breadth

        on_warm_up(_warm_up_search)
        connection_created.connect(use_session_breadth, dispatch_uid="recall-hnsw-session-breadth")
