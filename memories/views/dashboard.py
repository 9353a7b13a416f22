"""Dashboard: what is stored, what waits for review, what happened lately, what needs attention."""
from django.shortcuts import render

from access.console import console_view
from audit.metric_display import dashboard_alerts
from audit.metrics import current_metrics
from memories import review_queue


@console_view
def dashboard(request):
    user_id = request.acting_user_id
    drifted = list(review_queue.drifted_entities(user_id))
    return render(request, "memories/dashboard.html", {
        "alerts": dashboard_alerts(current_metrics(user_id), len(drifted)),
        "counts": review_queue.memory_counts(user_id),
        "review_count": review_queue.review_count(user_id),
        "drifted": drifted,
        "recent_memories": review_queue.recent_memories(user_id),
        "recent_events": review_queue.recent_audit_events(user_id),
    })
