"""Readiness: the database answers, and whether semantic retrieval is usable (and if not, why).

Semantic retrieval needs `memory_semantic.enabled` and `rerank_enabled`, and a
passing startup canary: the model is loaded and warmed with one encode
(untimed — the first load takes seconds and happens once per process, so
timing it against 120 ms would always fail), then "ping" is embedded through
the query path (`embed_search_query`) and must finish within
`memory_semantic.startup_canary_timeout_ms`. Failures keep semantic retrieval
off with a reason: canary_timeout (too slow), canary_auth (the model files
cannot be read: permission denied), canary_connection (the model cannot be
reached or loaded: missing path, broken files). `startup_canary_bypass` (or
PYPIBOT_SEMANTIC_CANARY_BYPASS=1) skips the canary. The canary runs once per
process, on the first search or readiness probe; `reset_canary()` makes the
next check run it again.
"""
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass

from django.db import connection

from recall_site.config import recall_setting

_lock = threading.Lock()
_result = None


@dataclass(frozen=True)
class CanaryResult:
    ok: bool
    reason: str = ""  # "" | canary_timeout | canary_auth | canary_connection
    load_ms: float = 0.0
    ping_ms: float = 0.0


def run_canary() -> CanaryResult:
    """Load and warm the model (untimed), then embed "ping" on the query path within the timeout."""
    from memories import embedding

    began = time.perf_counter()
    try:
        embedding.embed_texts(["warm-up"])  # loads the model and its lazy kernels: one-time cost, untimed
        embedding.embed_search_query("warm-up")  # the query session's own kernels
    except PermissionError:
        return CanaryResult(False, "canary_auth")
    except Exception:  # noqa: BLE001 - any load failure means the model is unreachable
        return CanaryResult(False, "canary_connection")
    load_ms = (time.perf_counter() - began) * 1000
    timeout_ms = recall_setting("memory_semantic.startup_canary_timeout_ms")
    executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="semantic-canary")
    began = time.perf_counter()
    future = executor.submit(embedding.embed_search_query, "ping")
    try:
        future.result(timeout=timeout_ms / 1000)
    except FutureTimeout:
        return CanaryResult(False, "canary_timeout", load_ms, (time.perf_counter() - began) * 1000)
    except Exception:  # noqa: BLE001
        return CanaryResult(False, "canary_connection", load_ms)
    finally:
        executor.shutdown(wait=False)
    ping_ms = (time.perf_counter() - began) * 1000
    if ping_ms >= timeout_ms:  # the worker thread can finish before result() is even called
        return CanaryResult(False, "canary_timeout", load_ms, ping_ms)
    return CanaryResult(True, "", load_ms, ping_ms)


def canary_result(wait: bool = True) -> CanaryResult | None:
    """The process's canary outcome, running the canary on first use. With `wait=False`, None while another
    thread (the start-up warm-up) is still running it, instead of waiting seconds for the model."""
    global _result
    if _result is not None:
        return _result
    if not _lock.acquire(blocking=wait):
        return None
    try:
        if _result is None:
            _result = run_canary()
        return _result
    finally:
        _lock.release()


def reset_canary() -> None:
    """Forget the outcome so the next check runs the canary again (config or model changed)."""
    global _result
    with _lock:
        _result = None


def semantic_status(wait: bool = True) -> dict:
    semantic = recall_setting("memory_semantic")
    if not semantic["enabled"] or not semantic["rerank_enabled"]:
        return {"enabled": False, "ready": False, "reason": "disabled"}
    if semantic["startup_canary_bypass"]:
        return {"enabled": True, "ready": True, "reason": "canary_bypassed"}
    result = canary_result(wait)
    if result is None:
        return {"enabled": True, "ready": False, "reason": "warming"}
    return {"enabled": True, "ready": result.ok, "reason": result.reason,
            "canary_load_ms": round(result.load_ms, 1), "canary_ping_ms": round(result.ping_ms, 1)}


def semantic_retrieval_ready() -> bool:
    return semantic_status()["ready"]


def semantic_state_now() -> str:
    """"ready", or why not — "warming" while the start-up warm-up still loads the model (never waits)."""
    status = semantic_status(wait=False)
    return "ready" if status["ready"] else status["reason"]


def readiness() -> dict:
    """/api/v1/ready's report: ready when the database answers and the model is no longer loading. It never
    waits for the start-up warm-up: a probe that hung for the model's whole load (tens of seconds on a busy
    two-core host) timed out instead of saying "warming"."""
    semantic = semantic_status(wait=False)
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
            row = cursor.fetchone()
    except Exception as exc:  # noqa: BLE001 - report, don't crash the probe
        return {"ready": False, "database": f"error: {exc.__class__.__name__}", "semantic": semantic}
    if not row:
        return {"ready": False, "database": "vector extension missing", "semantic": semantic}
    return {"ready": semantic["reason"] != "warming", "database": "ok", "pgvector": row[0], "semantic": semantic}
