"""Background work (django-q2): the task entry points, by these names in queued jobs and schedules —
embedding (memories/embedding_jobs.py), expiry and purge, drift detection (background ingests':
ingest/tasks.py). Tasks take ids, are idempotent and safe to run twice at once."""
from memories import embedding_jobs
from memories.expiry import expire_memories, purge_expired
from memories.review.drift import detect_drift


def embed_memories(memory_ids: list[int]) -> int:
    """Embed the given memories that still need it, each with its sentences."""
    return embedding_jobs.embed_memories(memory_ids)


def embed_pending_memories(limit: int = 512) -> int:
    """Scheduled: embed pending and errored memories in batches (the retry path)."""
    return embedding_jobs.embed_pending_memories(limit)


def expire_and_purge_memories() -> dict:
    """Daily: expire memories below the retrieval floor, purge those past the recovery window."""
    return {"expired": expire_memories(), "purged": purge_expired()}


def detect_entity_drift() -> int:
    """Daily: refresh entity centroids and flag drifted entities for review."""
    return detect_drift()
