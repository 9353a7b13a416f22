"""A rate limit holds across web processes: a real `manage.py serve` with two web workers lets through what
one limit allows, not one limit per worker (access/throttling.py counts in PostgreSQL)."""
from tests.site.live_serve import clean_up, free_port, fresh_var, serve_log, start_serve, status_on_a_new_connection

LIMIT = 12  # per hour: nothing refills while the test runs


def test_two_web_workers_share_one_count(tmp_path):
    var, port = fresh_var(tmp_path), free_port()
    serve = start_serve(var, port, RECALL_WEB_WORKERS="2", RECALL__SECURITY__API_RATE_PER_IP=f"{LIMIT}/hour")
    try:
        # ready may still answer 503 (the model loading): what counts is 429 or not
        refused = [status_on_a_new_connection(port, "/api/v1/ready") == 429 for _ in range(3 * LIMIT)]
        assert refused == [False] * LIMIT + [True] * (2 * LIMIT), serve_log(var)
    finally:
        clean_up(serve, var)
