"""A rate limit holds across web processes: a real `manage.py serve` with two web workers lets through what
one limit allows, not one limit per worker (access/throttling.py counts in PostgreSQL)."""
import http.client

from tests.site.live_serve import clean_up, free_port, fresh_var, serve_log, start_serve

LIMIT = 12  # per hour: nothing refills while the test runs


def ready_on_a_new_connection(port: int) -> int:
    client = http.client.HTTPConnection("127.0.0.1", port, timeout=30)  # each may land on either worker
    try:
        client.request("GET", "/api/v1/ready")
        return client.getresponse().status
    finally:
        client.close()


def test_two_web_workers_share_one_count(tmp_path):
    var, port = fresh_var(tmp_path), free_port()
    serve = start_serve(var, port, RECALL_WEB_WORKERS="2", RECALL__SECURITY__API_RATE_PER_IP=f"{LIMIT}/hour")
    try:
        refused = [ready_on_a_new_connection(port) == 429 for _ in range(3 * LIMIT)]  # ready may still be 503
        assert refused == [False] * LIMIT + [True] * (2 * LIMIT), serve_log(var)
    finally:
        clean_up(serve, var)
