"""Readiness: the database answers, and whether semantic retrieval is usable (and if not, why)."""
from django.db import connection

from recall_site.config import recall_setting


def semantic_status() -> dict:
    if not recall_setting("memory_semantic.enabled"):
        return {"enabled": False, "ready": False, "reason": "disabled"}
    return {"enabled": True, "ready": True, "reason": ""}


def readiness() -> dict:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
            row = cursor.fetchone()
    except Exception as exc:  # noqa: BLE001 - report, don't crash the probe
        return {"ready": False, "database": f"error: {exc.__class__.__name__}", "semantic": semantic_status()}
    if not row:
        return {"ready": False, "database": "vector extension missing", "semantic": semantic_status()}
    return {"ready": True, "database": "ok", "pgvector": row[0], "semantic": semantic_status()}
