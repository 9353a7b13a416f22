"""Prometheus counters and histograms the apps update as they work (the `/metrics` endpoint of the metrics
app exposes them with the gauges it reads at scrape time). Labels carry outcomes, stages and modes only —
never user ids or content.

With several server processes, set `PROMETHEUS_MULTIPROC_DIR` to an empty directory (`manage.py serve`
does) so every process's counts add up in one scrape.
"""
from prometheus_client import Counter, Histogram

INGEST_MESSAGES = Counter("recall_ingest_messages", "Ingested messages by headline outcome and stage.",
                          ["outcome", "stage"])
SEARCH_SECONDS = Histogram("recall_search_seconds", "Search latency through the API, by retrieval mode.", ["mode"],
                           buckets=(0.005, 0.01, 0.015, 0.02, 0.025, 0.03, 0.04, 0.05, 0.075, 0.1, 0.25, 0.5, 1, 2.5))
FORGET_REQUESTS = Counter("recall_forget_requests", "Hard deletes carried out, by what was forgotten.", ["kind"])
INGEST_JOBS = Counter("recall_ingest_jobs", "Background ingest jobs (\"wait\": false) by outcome: queued, done, "
                      "retried (a worker died, or the job failed and will run again) and failed.", ["outcome"])
