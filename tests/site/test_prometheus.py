"""GET /metrics: Prometheus text with what Recall did (ingests by outcome, search latency by mode, forgets)
and its state (embedding and task queues, review queue, semantic readiness); scraping is the operator's
choice (loopback only, or a bearer token); no user ids or content in it."""
import re

from tests import factories


def sample(text: str, name: str, **labels) -> float:
    """The value of one sample of the exposition ("name{a="x",b="y"} 3.0"), 0 when absent."""
    wanted = ",".join(f'{key}="{value}"' for key, value in labels.items())
    match = re.search(rf"^{re.escape(name)}(\{{{re.escape(wanted)}\}})? (\S+)$", text, re.M)
    return float(match.group(2)) if match else 0.0


def scrape(client) -> str:
    response = client.get("/metrics")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/plain")
    return response.content.decode()


def test_ingest_search_and_forget_show_up_in_the_counters(alice_api, client, django_capture_on_commit_callbacks):
    before = scrape(client)
    alice_api.post("/api/v1/ingest", {"user_id": "alice", "session_id": "s1", "messages": [
        {"role": "user", "content": "I prefer window seats on long flights"},
        {"role": "user", "content": "ok thanks"}]}, format="json")
    alice_api.post("/api/v1/search", {"query": "which seat do I like", "scope": {"user_id": "alice"}}, format="json")
    memory = factories.memory(content="door code 4711")
    with django_capture_on_commit_callbacks(execute=True):
        assert alice_api.post("/api/v1/forget_memory", {"user_id": "alice", "memory_id": memory.pk},
                              format="json").status_code == 200
    after = scrape(client)
    grew = lambda name, **labels: sample(after, name, **labels) - sample(before, name, **labels)  # noqa: E731
    assert grew("recall_ingest_messages_total", outcome="sent_to_review", stage="persist") + grew(
        "recall_ingest_messages_total", outcome="stored", stage="persist") == 1
    assert grew("recall_ingest_messages_total", outcome="rejected", stage="pre_filter") == 1
    assert sum(grew("recall_search_seconds_count", mode=mode) for mode in ("hybrid", "text")) == 1
    assert grew("recall_forget_requests_total", kind="memory") == 1
    assert sample(after, "recall_review_queue_size") >= 1
    assert "recall_semantic_ready" in after and "recall_task_queue_depth" in after
    # No user id or memory text leaks into the metrics (a bare "4711" could be digits of a float sum).
    assert "alice" not in after and "window" not in after and "door code" not in after


def test_only_this_machine_may_scrape_unless_a_token_is_set(db, client, recall_config):
    assert client.get("/metrics", REMOTE_ADDR="203.0.113.9").status_code == 403
    recall_config({"security": {"prometheus_token": "s3cret-scrape"}})
    assert client.get("/metrics").status_code == 403
    assert client.get("/metrics", REMOTE_ADDR="203.0.113.9", HTTP_AUTHORIZATION="Bearer s3cret-scrape").status_code == 200


def test_the_console_metrics_page_keeps_its_address(alice_client):
    assert alice_client.get("/metrics/").status_code == 200
