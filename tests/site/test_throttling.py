"""API rate limits: per token and per client IP, from Recall's config; 429 with Retry-After and JSON."""
from rest_framework.test import APIClient

from access.models import RateLimitCount
from access.throttling import forget_idle_counts
from recall_site.client_ip import trusted_networks


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
        assert anonymous.get("/api/v1/ready").status_code == 200
        assert alice_api.get("/api/v1/memories", {"user_id": "alice"}).status_code == 200
    _assert_throttled(anonymous.get("/api/v1/ready"))
    _assert_throttled(alice_api.get("/api/v1/memories", {"user_id": "alice"}))
    assert APIClient(REMOTE_ADDR="10.0.0.7").get("/api/v1/ready").status_code == 200


def test_x_forwarded_for_counts_only_behind_trusted_proxies(db, recall_config, settings):
    recall_config({"security": {"api_rate_per_ip": "1/minute"}})
    assert APIClient().get("/api/v1/ready", HTTP_X_FORWARDED_FOR="1.2.3.4").status_code == 200
    _assert_throttled(APIClient().get("/api/v1/ready", HTTP_X_FORWARDED_FOR="5.6.7.8"))  # forged: ignored
    settings.RECALL_TRUSTED_PROXIES = trusted_networks("10.0.0.0/24")
    proxy = APIClient(REMOTE_ADDR="10.0.0.1")
    assert proxy.get("/api/v1/ready", HTTP_X_FORWARDED_FOR="9.9.9.9, 1.2.3.4").status_code == 200
    assert proxy.get("/api/v1/ready", HTTP_X_FORWARDED_FOR="1.2.3.5").status_code == 200
    _assert_throttled(proxy.get("/api/v1/ready", HTTP_X_FORWARDED_FOR="8.8.8.8, 1.2.3.4"))
    outside = APIClient(REMOTE_ADDR="10.0.1.1")  # not a trusted proxy: its header is ignored
    assert outside.get("/api/v1/ready", HTTP_X_FORWARDED_FOR="1.2.3.6").status_code == 200
    _assert_throttled(outside.get("/api/v1/ready", HTTP_X_FORWARDED_FOR="1.2.3.7"))


def test_a_limit_refills_one_request_per_interval_and_idle_counts_go(alice_api, recall_config):
    recall_config({"security": {"api_rate_per_token": "2/minute"}})
    for _ in range(2):
        assert alice_api.get("/api/v1/memories", {"user_id": "alice"}).status_code == 200
    refused = alice_api.get("/api/v1/memories", {"user_id": "alice"})
    assert refused.status_code == 429 and 25 <= int(refused["Retry-After"]) <= 30  # one more in 30 s
    count = RateLimitCount.objects.get(key__startswith="token:")
    count.tat -= 31  # 31 seconds later
    count.save()
    assert alice_api.get("/api/v1/memories", {"user_id": "alice"}).status_code == 200
    assert alice_api.get("/api/v1/memories", {"user_id": "alice"}).status_code == 429
    RateLimitCount.objects.update(tat=0)  # long idle: nothing left to count
    assert forget_idle_counts() >= 1 and not RateLimitCount.objects.exists()


def test_an_ip_refused_costs_its_token_nothing(alice_api, recall_config):
    recall_config({"security": {"api_rate_per_token": "3/minute", "api_rate_per_ip": "1/minute"}})
    assert alice_api.get("/api/v1/memories", {"user_id": "alice"}).status_code == 200
    for _ in range(3):
        _assert_throttled(alice_api.get("/api/v1/memories", {"user_id": "alice"}))
    recall_config({"security": {"api_rate_per_token": "3/minute", "api_rate_per_ip": ""}})
    for _ in range(2):  # the refused requests took nothing from the token's three
        assert alice_api.get("/api/v1/memories", {"user_id": "alice"}).status_code == 200
    _assert_throttled(alice_api.get("/api/v1/memories", {"user_id": "alice"}))


def test_health_counts_against_no_limit(db, recall_config):
    recall_config({"security": {"api_rate_per_ip": "1/minute"}})
    assert [APIClient().get("/api/v1/health").status_code for _ in range(5)] == [200] * 5
    assert APIClient().get("/api/v1/ready").status_code == 200
    _assert_throttled(APIClient().get("/api/v1/ready"))


def test_an_empty_rate_turns_a_limit_off(alice_api, recall_config):
    recall_config({"security": {"api_rate_per_token": "", "api_rate_per_ip": ""}})
    for _ in range(20):
        assert alice_api.get("/api/v1/memories", {"user_id": "alice"}).status_code == 200


def test_the_defaults_leave_room_for_the_benchmarks(settings):
    from rest_framework.throttling import SimpleRateThrottle

    per_token = SimpleRateThrottle.parse_rate(None, settings.RECALL["security"]["api_rate_per_token"])
    per_ip = SimpleRateThrottle.parse_rate(None, settings.RECALL["security"]["api_rate_per_ip"])
    assert per_token[0] / per_token[1] >= 50 and per_ip[0] / per_ip[1] >= per_token[0] / per_token[1]
