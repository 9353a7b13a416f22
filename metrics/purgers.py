"""The metrics app's part of every deletion (recall_site/purging.py): nothing — weekly snapshots hold
counts and rates per user id, never content."""
from metrics.models import MetricSnapshot
from recall_site.purging import PurgePlan, Purger


class MetricsPurger(Purger):
    kept = {MetricSnapshot: "weekly counts and rates per user id, no content"}
    order = 95

    def count(self, plan: PurgePlan) -> dict[str, int]:
        return {}

    def execute(self, plan: PurgePlan) -> dict[str, int]:
        return {}
