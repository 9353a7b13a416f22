"""Shared fixtures: accounts alice (granted `alice`), bob (granted `bob`), staff charlie; API clients
and logged-in console clients."""
import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from access.models import UserIdGrant
from memories.readiness import reset_canary
from recall_site.config import with_overrides


def make_account(username: str, *, user_ids=(), staff: bool = False) -> User:
    account = User.objects.create_user(username=username, password="pw", is_staff=staff, is_superuser=staff)
    for user_id in user_ids:
        UserIdGrant.objects.create(account=account, user_id=user_id)
    return account


def token_client(account: User) -> APIClient:
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=account)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture
def alice(db):
    return make_account("alice", user_ids=["alice"])


@pytest.fixture
def bob(db):
    return make_account("bob", user_ids=["bob"])


@pytest.fixture
def charlie(db):
    return make_account("charlie", staff=True)


@pytest.fixture
def alice_api(alice):
    return token_client(alice)


@pytest.fixture
def bob_api(bob):
    return token_client(bob)


@pytest.fixture
def staff_api(charlie):
    return token_client(charlie)


def logged_in(account, *, enforce_csrf: bool = False) -> Client:
    client = Client(enforce_csrf_checks=enforce_csrf)
    client.force_login(account)
    return client


@pytest.fixture
def alice_client(alice):
    return logged_in(alice)


@pytest.fixture
def bob_client(bob):
    return logged_in(bob)


@pytest.fixture
def staff_client(charlie):
    return logged_in(charlie)


@pytest.fixture
def alice_csrf_client(alice):
    return logged_in(alice, enforce_csrf=True)


@pytest.fixture
def recall_config(settings):
    """Override Recall config keys for one test: recall_config({"memory_semantic": {"enabled": False}})."""

    def override(overrides: dict):
        settings.RECALL = with_overrides(settings.RECALL, overrides)
        return settings.RECALL

    return override


@pytest.fixture
def canary_bypassed(recall_config):
    """Searches read vectors at once, as in production once warm: the start-up canary is bypassed, so a busy
    machine cannot flip semantic retrieval off mid-test (tests/retrieval/test_readiness.py runs the real one)."""
    recall_config({"memory_semantic": {"startup_canary_bypass": True}})
    reset_canary()
    yield
    reset_canary()
