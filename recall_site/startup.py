"""A process's warm-up before it serves: apps register its steps in their `ready()`.

The steps make the first search or ingest as fast as the next: memories loads the embedding model and runs
its canary, ingest reads the gazetteer, search embeds the query-domain centroids. `warm_up` runs them in
that order (the apps' order), then takes what they loaded out of the garbage collector's generations
(gc.freeze): it lives as long as the process, and a full collection walking the model's ~480k objects
paused whichever request triggered it for ~250 ms. A web process warms up in the background at start (the
ASGI/WSGI entry point calls `start_serving_work`), a worker-cluster process as it spawns (memories/apps.py).
Management commands and tests, which import the apps but serve nothing, never do.
"""
import gc
import threading
from collections.abc import Callable

_WARM_UP: list[Callable[[], None]] = []


def on_warm_up(step: Callable[[], None]) -> None:
    if step not in _WARM_UP:
        _WARM_UP.append(step)


def warm_up() -> None:
    """Every registered warm-up step, then gc.freeze."""
    for step in _WARM_UP:
        step()
    gc.freeze()


def start_serving_work() -> threading.Thread:
    thread = threading.Thread(target=warm_up, name="serving-warm-up", daemon=True)
    thread.start()
    return thread
