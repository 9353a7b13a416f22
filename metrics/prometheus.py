"""`GET /metrics` in Prometheus' text format: the counters the apps update (recall_site/telemetry.py:
ingested messages by outcome and stage, search latency by mode, forget requests) and gauges read at
scrape time (embedding queue depth and failures, review queue size, semantic readiness).

Who may scrape is the operator's choice: with `security.prometheus_token` set, a request must carry
`Authorization: Bearer <token>`; without it, only requests from this machine (loopback) are answered.
Labels never carry user ids or content.
"""
import ipaddress
import os
import secrets

from django.db.models import Count
from django.http import HttpResponse
from django_q.models import OrmQ
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector

from memories.models import Memory, Status
from memories.readiness import semantic_status
from recall_site.config import recall_setting


class RecallStateCollector:
    """Gauges read from the database and the process when Prometheus scrapes."""

    def describe(self):
        return []  # nothing to read at registration (the database may not exist yet)

    def collect(self):
        pending = dict(Memory.objects.filter(status=Status.ACTIVE).values_list("embedding_status")
                       .annotate(n=Count("pk")).values_list("embedding_status", "n"))
        embeddings = GaugeMetricFamily("recall_memories_by_embedding_status", "Active memories by embedding state.",
                                       labels=["state"])
        for state, count in sorted(pending.items()):
            embeddings.add_metric([state], count)
        yield embeddings
        yield GaugeMetricFamily("recall_task_queue_depth", "Background tasks waiting in the queue.",
                                value=OrmQ.objects.count())
        yield GaugeMetricFamily("recall_review_queue_size", "Memories waiting for review (all users).",
                                value=Memory.objects.filter(status=Status.ACTIVE, needs_review=True).count())
        semantic = semantic_status(wait=False)  # a scrape never waits for the model to load
        ready = GaugeMetricFamily("recall_semantic_ready", "1 when semantic retrieval is ready, by reason.",
                                  labels=["reason"])
        ready.add_metric([semantic.get("reason") or "ok"], 1.0 if semantic.get("ready") else 0.0)
        yield ready


STATE = RecallStateCollector()
_registered = []


def register_state_collector() -> None:
    """Add the scrape-time gauges to this process's registry, once (MetricsConfig.ready())."""
    if not _registered:
        REGISTRY.register(STATE)
        _registered.append(STATE)


def prometheus_view(request):
    if not _may_scrape(request):
        return HttpResponse("Not allowed to scrape metrics.\n", status=403, content_type="text/plain")
    return HttpResponse(generate_latest(_registry()), content_type=CONTENT_TYPE_LATEST)


def _registry() -> CollectorRegistry:
    """This process's registry, or — with several server processes — one adding up all of theirs."""
    if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        return REGISTRY
    registry = CollectorRegistry()
    MultiProcessCollector(registry)
    registry.register(STATE)
    return registry


def _may_scrape(request) -> bool:
    token = recall_setting("security.prometheus_token")
    if token:
        given = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
        return secrets.compare_digest(given, token)
    try:
        return ipaddress.ip_address(request.META.get("REMOTE_ADDR", "")).is_loopback
    except ValueError:
        return False
