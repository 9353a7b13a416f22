"""The console's home (the dashboard: what is stored, what waits, what happened, what needs attention) and
the metrics page. They read every app, so they live on top of them."""
from django.shortcuts import render

from access.console import console_view
from memories.review import selectors as review_queue
from metrics.display import dashboard_alerts, metric_panels
from metrics.measures import current_metrics, metric_series


@console_view
def dashboard(request):
    user_id = request.acting_user_id
    drifted_count = review_queue.drifted_entities(user_id).count()
    return render(request, "memories/dashboard.html", {
        "alerts": dashboard_alerts(current_metrics(user_id), drifted_count),
        "counts": review_queue.memory_counts(user_id),
        "review_count": review_queue.review_count(user_id),
        "entity_count": review_queue.known_entity_count(user_id),
        "pinned_count": review_queue.pinned_count(user_id),
        "recent_memories": review_queue.recent_memories(user_id),
        "recent_events": review_queue.recent_audit_events(user_id),
    })


@console_view
def metrics(request):
    user_id = request.acting_user_id
    panels = metric_panels(current_metrics(user_id), metric_series(user_id))
    return render(request, "metrics/metrics.html", {"panels": panels})
