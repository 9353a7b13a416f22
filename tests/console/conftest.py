"""Console fixtures: logged-in clients for alice, bob and staff charlie, and a CSRF-enforcing client."""
import pytest
from django.test import Client

from tests import factories


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
def review_item(alice):
    """An auto-reflection memory of alice's waiting for confirmation."""
    return factories.memory("alice", "likes flat white coffee", session_id="s-review", source="auto_reflection",
                            needs_review=True, review_reason="auto_memory", confidence=0.7)


@pytest.fixture
def bob_secret(bob):
    return factories.memory("bob", "bob's secret plan for the surprise party", session_id="s-bob",
                            needs_review=True, review_reason="auto_memory")
