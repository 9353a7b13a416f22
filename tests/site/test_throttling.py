"""API rate limits: per token and per client IP, from Recall's config; 429 with Retry-After and JSON."""
import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from recall_site.client_ip import trusted_networks


@pytest.fixture(autouse=True)
def fresh_counts():
    cache.clear()
    yield
    cache.clear()


def _assert_throttled(response):
    assert (response.status_code, response["Content-Type"]) == (429, "application/json")
    assert 0 < int(response["Retry-After"]) <= 60
    assert response.json()["error"] == "throttled" and "throttled" in response.json()["message"]


def test_a_token_over_its_rate_gets_429_and_other_tokens_do_not(alice_api, bob_api, recall_config):
    recall_config({"security": {"api_rate_per_token": "3/minute"}})
    for _ in range(3):
        assert alice_api.get("/api/v1/memories", {"user_id": "alice"}).status_code == 200
    _assert_throttled(alice_api.get("/api/v1/memories", {"user_id": "alice"}))
    _assert_throttled(alice_api.post("/api/v1/remember_memory", {"user_id": "alice", "content": "x"}, format="json"))
    assert bob_api.get("/api/v1/memories", {"user_id": "bob"}).status_code == 200


def test_an_ip_over_its_rate_gets_429_signed_in_or_not(alice_api, recall_config):
    recall_config({"security": {"api_rate_per_ip": "4/minute"}})
    anonymous = APIClient()
    for _ in range(2):
        assert anonymous.get("/api/v1/health").status_code == 200
        assert alice_api.get("/api/v1/memories", {"user_id": "alice"}).status_code == 200
    _assert_throttled(anonymous.get("/api/v1/health"))
    _assert_throttled(alice_api.get("/api/v1/memories", {"user_id": "alice"}))
    assert APIClient(REMOTE_ADDR="10.0.0.7").get("/api/v1/health").status_code == 200


def test_x_forwarded_for_counts_only_behind_trusted_proxies(db, recall_config, settings):
    recall_config({"security": {"api_rate_per_ip": "1/minute"}})
    assert APIClient().get("/api/v1/health", HTTP_X_FORWARDED_FOR="1.2.3.4").status_code == 200
    _assert_throttled(APIClient().get("/api/v1/health", HTTP_X_FORWARDED_FOR="5.6.7.8"))  # forged: ignored
    settings.RECALL_TRUSTED_PROXIES = trusted_networks("10.0.0.0/24")
    proxy = APIClient(REMOTE_ADDR="10.0.0.1")
    assert proxy.get("/api/v1/health", HTTP_X_FORWARDED_FOR="9.9.9.9, 1.2.3.4").status_code == 200
    assert proxy.get("/api/v1/health", HTTP_X_FORWARDED_FOR="1.2.3.5").status_code == 200
    _assert_throttled(proxy.get("/api/v1/health", HTTP_X_FORWARDED_FOR="8.8.8.8, 1.2.3.4"))
    outside = APIClient(REMOTE_ADDR="10.0.1.1")  # not a trusted proxy: its header is ignored
    assert outside.get("/api/v1/health", HTTP_X_FORWARDED_FOR="1.2.3.6").status_code == 200
    _assert_throttled(outside.get("/api/v1/health", HTTP_X_FORWARDED_FOR="1.2.3.7"))


def test_an_empty_rate_turns_a_limit_off(alice_api, recall_config):
    recall_config({"security": {"api_rate_per_token": "", "api_rate_per_ip": ""}})
    for _ in range(20):
        assert alice_api.get("/api/v1/memories", {"user_id": "alice"}).status_code == 200


def test_the_defaults_leave_room_for_the_benchmarks(settings):
    from rest_framework.throttling import SimpleRateThrottle

    per_token = SimpleRateThrottle.parse_rate(None, settings.RECALL["security"]["api_rate_per_token"])
    per_ip = SimpleRateThrottle.parse_rate(None, settings.RECALL["security"]["api_rate_per_ip"])
    assert per_token[0] / per_token[1] >= 50 and per_ip[0] / per_ip[1] >= per_token[0] / per_token[1]
