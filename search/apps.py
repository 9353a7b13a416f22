from django.apps import AppConfig
from django.db.backends.signals import connection_created


def _warm_up_worker(**_) -> None:
    from django.conf import settings

    from search.warm_up import warm_up

    if settings.WORKER_PROCESS:
        warm_up()


class SearchConfig(AppConfig):
    """Search (retrieval, hydration, the search/hydrate/turn API, the console pages that search): no models of
    its own, above memories."""
    name = "search"
    verbose_name = "Search"

    def ready(self):
        from django_q.signals import post_spawn

        from recall_site.startup import on_serve
        from search.retrieval.semantic import use_session_breadth
        from search.warm_up import warm_up

        on_serve(warm_up)  # the model, the startup canary and the query-domain centroids, before the first search
        # A worker-cluster process too, before its first task: else a small ingest job waits ~10 s for the
        # model. (A sync django-q, as under the tests, sends post_spawn with every task: not warmed there.)
        post_spawn.connect(_warm_up_worker, dispatch_uid="recall-worker-warm-up")
        connection_created.connect(use_session_breadth, dispatch_uid="recall-hnsw-session-breadth")
