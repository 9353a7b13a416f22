"""Every console POST is CSRF-protected: without the token nothing happens."""
import pytest

from audit.models import AuditEvent
from entities.models import EntityReview
from memories.models import Memory, UserProfile
from tests import factories


@pytest.fixture
def targets(review_item):
    sarah = factories.person("alice", "Sarah Chen")
    review = EntityReview.objects.create(user_id="alice", kind="drift", entity=sarah)
    return {"memory": review_item.pk, "review": review.pk, "entity": sarah.public_id}


POSTS = [
    ("/review/memory/{memory}/approve/", {}),
    ("/review/memory/{memory}/reject/", {}),
    ("/review/memory/{memory}/pin/", {"pinned": "true"}),
    ("/review/memory/{memory}/edit/", {"content": "x", "type": "fact", "domain": "personal",
                                       "confidence": "0.5", "importance": "0.5"}),
    ("/review/bulk/", {"action": "reject", "memory_ids": ["{memory}"]}),
    ("/review/entity/{review}/", {"decision": "confirm"}),
    ("/forget/", {"kind": "memory", "memory_id": "{memory}", "step": "confirm"}),
    ("/profile/", {"name": "Mallory", "assistant_name": "Theo"}),
    ("/switch-user/", {"user_id": "alice"}),
    ("/memories/{memory}/restore/", {}),
]


@pytest.mark.parametrize("path, data", POSTS)
def test_post_without_csrf_token_is_rejected(alice_csrf_client, targets, path, data):
    data = {key: [v.format(**targets) for v in value] if isinstance(value, list) else value.format(**targets)
            for key, value in data.items()}
    response = alice_csrf_client.post(path.format(**targets), data)
    assert response.status_code == 403
    memory = Memory.objects.get(pk=targets["memory"])
    assert memory.needs_review and not memory.pinned and memory.content == "likes flat white coffee"
    assert EntityReview.objects.get(pk=targets["review"]).resolved_at is None
    assert not UserProfile.objects.filter(name="Mallory").exists()
    assert not AuditEvent.objects.exists()


def test_post_with_csrf_token_works(alice_csrf_client, targets):
    page = alice_csrf_client.get("/review/").content.decode()
    token = alice_csrf_client.cookies["csrftoken"].value
    assert "csrfmiddlewaretoken" in page
    response = alice_csrf_client.post(f"/review/memory/{targets['memory']}/approve/", {"csrfmiddlewaretoken": token})
    assert response.status_code == 302
    assert not Memory.objects.get(pk=targets["memory"]).needs_review


def test_htmx_header_token_works(alice_csrf_client, targets):
    alice_csrf_client.get("/review/")
    token = alice_csrf_client.cookies["csrftoken"].value
    response = alice_csrf_client.post(f"/review/memory/{targets['memory']}/pin/", {"pinned": "true"},
                                      HTTP_HX_REQUEST="true", HTTP_X_CSRFTOKEN=token)
    assert response.status_code == 200 and Memory.objects.get(pk=targets["memory"]).pinned
