"""Work a process does once before it serves: apps register it in their `ready()`.

`on_warm_up` steps make the first search or ingest as fast as the next (search loads the embedding model,
runs the canary and embeds the query-domain centroids; ingest reads the gazetteer); `warm_up` runs them,
then takes what they loaded out of the garbage collector's generations (gc.freeze): it lives as long as the
process, and a full collection walking the model's ~480k objects paused whichever request triggered it for
~250 ms. `on_serve` work runs in the background when a web process starts (the ASGI/WSGI entry point calls
`start_serving_work`); a worker-cluster process warms up as it spawns. Management commands and tests,
which import the apps but serve nothing, never do.
"""
import gc
import threading
from collections.abc import Callable

_ON_SERVE: list[Callable[[], None]] = []
_WARM_UP: list[Callable[[], None]] = []


def on_serve(work: Callable[[], None]) -> None:
    if work not in _ON_SERVE:
        _ON_SERVE.append(work)


def on_warm_up(step: Callable[[], None]) -> None:
    if step not in _WARM_UP:
        _WARM_UP.append(step)


def warm_up() -> None:
    """Every registered warm-up step, then gc.freeze."""
    for step in _WARM_UP:
        step()
    gc.freeze()


def start_serving_work() -> threading.Thread:
    def run():
        for work in _ON_SERVE:
            work()

    thread = threading.Thread(target=run, name="serving-warm-up", daemon=True)
    thread.start()
    return thread
