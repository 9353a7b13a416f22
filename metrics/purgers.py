"""The metrics app's part of every deletion (recall_site/purging.py): nothing — weekly snapshots hold
counts and rates per user id, never content."""
from metrics.models import MetricSnapshot
from recall_site.purging import KeptTables


class MetricsTables(KeptTables):
    kept = {MetricSnapshot: "weekly counts and rates per user id, no content"}
