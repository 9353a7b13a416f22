from django.apps import AppConfig
from django.db.backends.signals import connection_created


def _warm_up_search() -> None:
    """The model and its canary, then the query-domain centroids (when semantic retrieval is usable)."""
    from memories.readiness import semantic_retrieval_ready
    from search.retrieval.gating import query_domain_centroids

    if semantic_retrieval_ready():
        query_domain_centroids()


def _warm_up_worker(**_) -> None:
    from django.conf import settings

    from recall_site.startup import warm_up

    if settings.WORKER_PROCESS:
        warm_up()


class SearchConfig(AppConfig):
    """Search (retrieval, hydration, the search/hydrate/turn API, the console pages that search): no models of
    its own, above memories."""
    name = "search"
    verbose_name = "Search"

    def ready(self):
        from django_q.signals import post_spawn

        from recall_site.startup import on_serve, on_warm_up, warm_up
        from search.retrieval.semantic import use_session_breadth

        on_warm_up(_warm_up_search)
        on_serve(warm_up)  # every app's warm-up steps, before the first search
        # A worker-cluster process too, before its first task: else a small ingest job waits ~10 s for the
        # model. (A sync django-q, as under the tests, sends post_spawn with every task: not warmed there.)
        post_spawn.connect(_warm_up_worker, dispatch_uid="recall-worker-warm-up")
        connection_created.connect(use_session_breadth, dispatch_uid="recall-hnsw-session-breadth")
