"""What an import will keep, before it runs: `"dry_run": true` on ingest, `import_transcript --dry-run`.

Old history meets the seed's expiry policy: a memory whose own date already puts its freshness below
`decay.retrieval_floor` arrives expired, is never returned by search and is purged for good
`decay.expired_retention_days` later. A dry run runs the very pipeline inside one transaction that is rolled
back (`ingest.pipeline.ingest_dry_run`), so it counts exactly what the real import would do and writes
nothing (no memory, entity, audit row, job or embedding). `expiry_summary` gives, per memory type, how many memories would be written, how many of
them arrive expired, and the day those would be purged; the real import's response carries the same summary.
"""
from collections import Counter
from datetime import timedelta

from django.utils import timezone

from ingest.pipeline.base import PipelineTrace
from recall_site.config import recall_setting


def ingest_answer(trace: PipelineTrace) -> dict:
    """What an ingest answers (at once, or as a background job's result): its trace and its expiry summary."""
    return {**trace.as_dict(), "expiry": expiry_summary(trace)}


def expiry_summary(trace: PipelineTrace) -> dict:
    """{"by_type": {type: {"memories": n, "expired_on_arrival": k}}, "purged_on": date or None, "policy": …}."""
    written, expired = Counter(), Counter()
    for entry in trace.entries:
        for result in entry.results:
            if result.memory_id:
                written[result.type] += 1
                expired[result.type] += bool(result.expired)
    retention = recall_setting("decay.expired_retention_days")
    purged_on = (timezone.now() + timedelta(days=retention)).date().isoformat() if sum(expired.values()) else None
    return {
        "by_type": {kind: {"memories": written[kind], "expired_on_arrival": expired[kind]} for kind in sorted(written)},
        "purged_on": purged_on,
        "policy": f"a memory whose date puts its freshness below decay.retrieval_floor "
                  f"({recall_setting('decay.retrieval_floor')}) arrives expired: never returned by search, "
                  f"purged {retention} days later; shift the timestamps to keep old history findable",
    }
