"""Login lockout (django-axes): wrong passwords lock the account name and the client IP for the cool-off,
on the console and on the admin."""
from datetime import timedelta

from axes.models import AccessAttempt
from django.test import Client
from django.utils import timezone

from tests.conftest import make_account


def _login(client, username, password, path="/login/"):
    return client.post(path, {"username": username, "password": password})


def test_sixty_wrong_passwords_lock_the_account_and_the_ip(alice, settings):
    limit = settings.RECALL["security"]["login_failure_limit"]
    client = Client()
    statuses = [_login(client, "alice", f"guess-{n}").status_code for n in range(60)]
    assert statuses == [200] * (limit - 1) + [429] * (61 - limit)
    locked = _login(client, "alice", "pw")  # the right password, too late
    assert locked.status_code == 429 and "_auth_user_id" not in client.session
    assert "Too many login attempts" in locked.content.decode() and locked["Retry-After"] == "900"
    assert _login(Client(REMOTE_ADDR="10.0.0.9"), "alice", "pw").status_code == 429  # the account, anywhere
    make_account("dora")
    assert _login(client, "dora", "pw").status_code == 429  # and the IP, for every account
    assert _login(Client(REMOTE_ADDR="10.0.0.9"), "dora", "pw").status_code == 302


def test_the_admin_login_is_locked_too(charlie, recall_config):
    recall_config({"security": {"login_failure_limit": 3}})
    client = Client()
    for _ in range(3):
        _login(client, "charlie", "wrong", "/admin/login/")
    assert _login(client, "charlie", "pw", "/admin/login/").status_code == 429
    assert _login(client, "charlie", "pw").status_code == 429


def test_the_lock_lifts_after_the_cool_off(alice, recall_config):
    recall_config({"security": {"login_failure_limit": 3, "login_cool_off_minutes": 5}})
    client = Client()
    for _ in range(3):
        _login(client, "alice", "wrong")
    assert _login(client, "alice", "pw").status_code == 429
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=6))
    assert _login(client, "alice", "pw").status_code == 302


def test_a_successful_login_clears_the_count(alice, recall_config):
    recall_config({"security": {"login_failure_limit": 3}})
    client = Client()
    for _ in range(2):
        _login(client, "alice", "wrong")
    assert _login(client, "alice", "pw").status_code == 302
    for _ in range(2):
        assert _login(Client(), "alice", "wrong").status_code == 200
