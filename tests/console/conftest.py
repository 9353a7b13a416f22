"""Console fixtures: review items for alice and bob (logged-in clients live in tests/conftest.py)."""
import pytest

from tests import factories


@pytest.fixture
def review_item(alice):
    """An auto-reflection memory of alice's waiting for confirmation."""
    return factories.memory("alice", "likes flat white coffee", session_id="s-review", source="auto_reflection",
                            needs_review=True, review_reason="auto_memory", confidence=0.7)


@pytest.fixture
def bob_secret(bob):
    return factories.memory("bob", "bob's secret plan for the surprise party", session_id="s-bob",
                            needs_review=True, review_reason="auto_memory")
