"""Work a serving process does once at start, in the background: apps register it in their `ready()`
(memories loads the embedding model, runs the canary and embeds the query-domain centroids), the WSGI
entry point runs it. Management commands and tests, which import the apps but serve nothing, never do."""
import threading
from collections.abc import Callable

_ON_SERVE: list[Callable[[], None]] = []


def on_serve(work: Callable[[], None]) -> None:
    if work not in _ON_SERVE:
        _ON_SERVE.append(work)


def start_serving_work() -> threading.Thread:
    def run():
        for work in _ON_SERVE:
            work()

    thread = threading.Thread(target=run, name="serving-warm-up", daemon=True)
    thread.start()
    return thread
