""""dry_run" and "hard" of POST /api/v1/delete are JSON booleans: "dry_run": 0 once ran a real delete (issue #26)."""
import pytest

from memories.models import Memory
from tests import factories
from tests.site.test_bad_input import assert_bad_input, post_json


@pytest.fixture
def memory(db):
    return factories.memory(content="prefers tea", session_id="s1")


@pytest.mark.parametrize("value", [0, 1, "true", "false", "", None, [], {}, 0.0])
def test_dry_run_that_is_not_a_boolean_is_a_400_and_deletes_nothing(alice_api, memory, value):
    body = {"scope": {"user_id": "alice"}, "filter": {"memory_ids": [memory.pk]}, "dry_run": value}
    assert_bad_input(post_json(alice_api, "/api/v1/delete", body), field="dry_run")
    assert Memory.objects.filter(pk=memory.pk).exists()


@pytest.mark.parametrize("value", [1, "true", "yes", None, 0])
def test_hard_that_is_not_a_boolean_is_a_400_and_deletes_nothing(alice_api, memory, value):
    body = {"scope": {"user_id": "alice"}, "filter": {"memory_ids": [memory.pk], "hard": value}}
    assert_bad_input(post_json(alice_api, "/api/v1/delete", body), field="filter")
    assert Memory.objects.filter(pk=memory.pk).exists()


def test_true_and_false_still_work(alice_api, memory):
    body = {"scope": {"user_id": "alice"}, "filter": {"memory_ids": [memory.pk], "hard": True}, "dry_run": True}
    preview = post_json(alice_api, "/api/v1/delete", body)
    assert preview.status_code == 200 and preview.json()["dry_run"] is True
    assert Memory.objects.filter(pk=memory.pk).exists()
    real = post_json(alice_api, "/api/v1/delete", {**body, "dry_run": False})
    assert real.status_code == 200 and real.json()["dry_run"] is False
    assert not Memory.objects.filter(pk=memory.pk).exists()
