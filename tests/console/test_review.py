"""Review queue: approve, edit, reject, pin — singly, in bulk and in place; entity questions."""
import pytest

from audit.models import AuditEvent
from entities.models import EntityReview
from memories.models import Memory
from search.hydration import startup_digest
from tests import factories

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_queue_shows_items_with_provenance_and_reason(alice_client, review_item, bob_secret):
    inferred = factories.memory("alice", "seems to prefer no Monday meetings", source="inferred", confidence=0.35,
                                needs_review=True, review_reason="inferred", session_id="s-pattern")
    page = alice_client.get("/review/").content.decode()
    assert "likes flat white coffee" in page and "seems to prefer no Monday meetings" in page
    assert "auto memory: the assistant proposed it after session s-review, confidence 0.70" in page
    assert "inferred: a guess, not something you said; confidence 0.35 below the 0.40 search needs" in page
    assert "s-review" in page and "Auto-reflection" in page and "0.70" in page
    assert f'id="memory-{inferred.pk}"' in page
    assert "surprise party" not in page


def test_the_badge_refresh_returns_the_users_count_for_the_badge_to_keep(alice_client, review_item, bob_secret):
    page = alice_client.get("/review/").content.decode()
    assert 'id="review-badge"' in page and 'hx-swap="innerHTML"' in page  # the badge stays, its count changes
    assert alice_client.get("/review/badge/", **HTMX).content.decode() == (
        '<span aria-label="1 waiting for review">1</span>')  # bob's item is not counted
    alice_client.post(f"/review/memory/{review_item.pk}/approve/", **HTMX)
    assert alice_client.get("/review/badge/", **HTMX).content.decode() == ""


def test_empty_queue_explains_what_will_appear(alice_client):
    page = alice_client.get("/review/").content.decode()
    assert "Nothing to confirm." in page and "No open questions." in page


def test_approve_in_place_raises_confidence_and_audits(alice_client, review_item):
    response = alice_client.post(f"/review/memory/{review_item.pk}/approve/", **HTMX)
    assert response.status_code == 200
    assert "Approved" in response.content.decode() and response["HX-Trigger"] == "reviewChanged"
    review_item.refresh_from_db()
    assert not review_item.needs_review and review_item.reviewed_at is not None
    assert review_item.confidence == pytest.approx(0.8)
    event = AuditEvent.objects.get(action="memory_approve")
    assert event.user_id == "alice" and event.target_ids == {"memory_ids": [review_item.pk]}
    assert "coffee" not in str(event.target_ids) + event.reason
    assert list(review_item.history.values_list("action", flat=True)) == ["created", "approved"]


def test_approve_confidence_step_comes_from_config(alice_client, review_item, recall_config):
    recall_config({"memory": {"review_approve_confidence_step": 0.25}})
    alice_client.post(f"/review/memory/{review_item.pk}/approve/")
    review_item.refresh_from_db()
    assert review_item.confidence == pytest.approx(0.95)


def test_approve_without_javascript_redirects_back_with_a_message(alice_client, review_item):
    response = alice_client.post(f"/review/memory/{review_item.pk}/approve/", follow=True)
    assert response.redirect_chain[-1][0] == "/review/"
    assert "Approved." in response.content.decode()


def test_approving_a_pinned_item_makes_it_digest_eligible(alice_client):
    pinned = factories.memory("alice", "prefers concise answers", pinned=True, needs_review=True,
                              review_reason="auto_pinned", source="auto_reflection", importance=0.9)
    assert "out of the startup digest until you approve it" in alice_client.get("/review/").content.decode()
    assert pinned not in startup_digest("alice").memories
    assert "Nothing pinned and approved yet." in alice_client.get("/profile/").content.decode()
    alice_client.post(f"/review/memory/{pinned.pk}/approve/", **HTMX)
    assert pinned in startup_digest("alice").memories
    assert "prefers concise answers" in alice_client.get("/profile/").content.decode()


def test_reject_hard_deletes_and_audits_ids_only(alice_client, review_item):
    response = alice_client.post(f"/review/memory/{review_item.pk}/reject/", **HTMX)
    assert response.status_code == 200 and "deleted for good" in response.content.decode()
    assert not Memory.objects.filter(pk=review_item.pk).exists()
    event = AuditEvent.objects.get(action="review_reject")
    assert event.target_ids == {"memory_ids": [review_item.pk]} and event.counts["memories"] == 1
    assert "coffee" not in str(event.counts) + event.reason


def test_pin_and_unpin_in_place(alice_client, review_item):
    response = alice_client.post(f"/review/memory/{review_item.pk}/pin/", {"pinned": "true"}, **HTMX)
    assert response.status_code == 200 and ">Unpin<" in response.content.decode()
    assert Memory.objects.get(pk=review_item.pk).pinned
    alice_client.post(f"/review/memory/{review_item.pk}/pin/", {"pinned": "false"}, **HTMX)
    assert not Memory.objects.get(pk=review_item.pk).pinned
    assert list(AuditEvent.objects.order_by("id").values_list("action", flat=True)) == ["memory_pin", "memory_unpin"]


def test_pin_from_memory_page_returns_there(alice_client, review_item):
    detail = f"/memories/{review_item.pk}/"
    response = alice_client.post(f"/review/memory/{review_item.pk}/pin/", {"pinned": "true", "next": detail})
    assert response.status_code == 302 and response["Location"] == detail
    response = alice_client.post(f"/review/memory/{review_item.pk}/pin/", {"pinned": "true", "next": "https://evil.example/"})
    assert response["Location"] == "/review/"


def test_edit_inline_form_then_save(alice_client, review_item):
    form = alice_client.get(f"/review/memory/{review_item.pk}/edit/", **HTMX).content.decode()
    assert "<form" in form and "likes flat white coffee" in form and "Save and approve" in form
    response = alice_client.post(f"/review/memory/{review_item.pk}/edit/", {
        "content": "likes oat flat whites", "type": "preference", "domain": "personal",
        "confidence": "0.8", "importance": "0.6"}, **HTMX)
    assert response.status_code == 200 and "likes oat flat whites" in response.content.decode()
    review_item.refresh_from_db()
    assert review_item.content == "likes oat flat whites" and review_item.needs_review
    assert AuditEvent.objects.filter(action="memory_update", user_id="alice").count() == 1


def test_edit_and_approve(alice_client, review_item):
    alice_client.post(f"/review/memory/{review_item.pk}/edit/", {
        "content": "likes flat whites", "type": "preference", "domain": "personal",
        "confidence": "0.7", "importance": "0.5", "approve": "1"}, **HTMX)
    review_item.refresh_from_db()
    assert not review_item.needs_review and review_item.content == "likes flat whites"


@pytest.mark.parametrize("htmx", [True, False])
def test_edit_with_bad_input_shows_errors_and_changes_nothing(alice_client, review_item, htmx):
    response = alice_client.post(f"/review/memory/{review_item.pk}/edit/", {
        "content": "   ", "type": "preference", "domain": "nowhere", "confidence": "1.7", "importance": "0.5"},
        **(HTMX if htmx else {}))
    page = response.content.decode()
    assert response.status_code == (200 if htmx else 400)
    assert "A memory needs some text." in page
    assert "less than or equal to 1" in page
    assert "Select a valid choice" in page
    review_item.refresh_from_db()
    assert review_item.content == "likes flat white coffee" and review_item.confidence == pytest.approx(0.7)
    assert not AuditEvent.objects.exists()


def test_bulk_approve_and_reject(alice_client, review_item):
    other = factories.memory("alice", "enjoys climbing", needs_review=True, review_reason="auto_memory")
    third = factories.memory("alice", "owns a red bike", needs_review=True, review_reason="auto_memory")
    response = alice_client.post("/review/bulk/", {"action": "approve", "memory_ids": [review_item.pk, other.pk]},
                                 **HTMX)
    page = response.content.decode()
    assert "2 memories approved." in page and "owns a red bike" in page and "enjoys climbing" not in page
    assert Memory.objects.filter(pk__in=[review_item.pk, other.pk], needs_review=False).count() == 2
    alice_client.post("/review/bulk/", {"action": "reject", "memory_ids": [third.pk]}, **HTMX)
    assert not Memory.objects.filter(pk=third.pk).exists()


def test_bulk_pin(alice_client, review_item):
    alice_client.post("/review/bulk/", {"action": "pin", "memory_ids": [review_item.pk]})
    assert Memory.objects.get(pk=review_item.pk).pinned


def test_bulk_without_selection_is_a_form_error(alice_client, review_item):
    response = alice_client.post("/review/bulk/", {"action": "approve"})
    assert response.status_code == 400 and "Select at least one memory." in response.content.decode()
    assert Memory.objects.get(pk=review_item.pk).needs_review


def test_bulk_with_another_users_id_changes_nothing(alice_client, review_item, bob_secret):
    response = alice_client.post("/review/bulk/", {"action": "reject", "memory_ids": [review_item.pk, bob_secret.pk]},
                                 **HTMX)
    assert "no longer exists" in response.content.decode()
    assert Memory.objects.filter(pk__in=[review_item.pk, bob_secret.pk]).count() == 2
    assert "surprise party" not in response.content.decode()


@pytest.mark.parametrize("action", ["approve", "reject", "pin", "edit"])
def test_actions_on_another_users_memory_are_404(alice_client, bob_secret, action):
    before = Memory.objects.get(pk=bob_secret.pk)
    response = alice_client.post(f"/review/memory/{bob_secret.pk}/{action}/", {
        "content": "hijacked", "type": "fact", "domain": "personal", "confidence": "1", "importance": "1"})
    missing = alice_client.post(f"/review/memory/999999/{action}/")
    assert response.status_code == missing.status_code == 404
    assert "surprise" not in response.content.decode()
    after = Memory.objects.get(pk=bob_secret.pk)
    assert (after.content, after.needs_review, after.pinned) == (before.content, True, False)
    assert not AuditEvent.objects.exists()


def test_review_item_partial_of_another_user_is_404(alice_client, bob_secret):
    assert alice_client.get(f"/review/memory/{bob_secret.pk}/", **HTMX).status_code == 404
    assert alice_client.get(f"/review/memory/{bob_secret.pk}/edit/", **HTMX).status_code == 404


def test_actions_need_post(alice_client, review_item):
    assert alice_client.get(f"/review/memory/{review_item.pk}/approve/").status_code == 405
    assert Memory.objects.get(pk=review_item.pk).needs_review


def _drift_review(user_id="alice"):
    sarah = factories.person(user_id, "Sarah Chen")
    acme = factories.person(user_id, "Acme Corp", kind="org")
    factories.relation(sarah, "works_at", acme)
    sarah.drift_flagged = True
    sarah.relations_at_creation = ["lives_in:ent_old"]
    sarah.save()
    return EntityReview.objects.create(user_id=user_id, kind="drift", entity=sarah)


def test_drift_question_confirm_rebaselines_the_entity(alice_client):
    review = _drift_review()
    page = alice_client.get("/review/").content.decode()
    assert "Sarah Chen" in page and "seems to have changed" in page
    response = alice_client.post(f"/review/entity/{review.pk}/", {"decision": "confirm"}, **HTMX)
    assert "baseline" in response.content.decode()
    review.refresh_from_db()
    sarah = review.entity
    sarah.refresh_from_db()
    assert review.resolved_at is not None and not sarah.drift_flagged
    assert sarah.relations_at_creation == [f"works_at>{sarah.relations_out.get().object.public_id}"]
    event = AuditEvent.objects.get(action="drift_rebaseline")
    assert event.target_ids["entity_ids"] == [sarah.public_id] and "Sarah" not in str(event.target_ids)


def test_drift_question_dismiss_keeps_the_old_baseline(alice_client):
    review = _drift_review()
    alice_client.post(f"/review/entity/{review.pk}/", {"decision": "dismiss"}, **HTMX)
    review.refresh_from_db()
    sarah = review.entity
    sarah.refresh_from_db()
    assert review.resolved_at is not None and not sarah.drift_flagged
    assert sarah.relations_at_creation == ["lives_in:ent_old"]
    assert AuditEvent.objects.get().action == "entity_review_dismiss"


def test_ambiguous_question_dismiss(alice_client):
    first, second = factories.person("alice", "Sarah Chen"), factories.person("alice", "Sarah Miller")
    review = EntityReview.objects.create(user_id="alice", kind="ambiguous_match", entity=first, candidate=second)
    page = alice_client.get("/review/").content.decode()
    assert "Sarah Chen" in page and "Sarah Miller" in page and "They are different" in page
    alice_client.post(f"/review/entity/{review.pk}/", {"decision": "dismiss"})
    review.refresh_from_db()
    assert review.resolved_at is not None
    assert AuditEvent.objects.get().action == "entity_review_dismiss"
    assert "Sarah Miller" not in alice_client.get("/review/").content.decode()


def test_another_users_entity_question_is_404(alice_client, bob):
    review = _drift_review("bob")
    assert "Sarah" not in alice_client.get("/review/").content.decode()
    assert alice_client.post(f"/review/entity/{review.pk}/", {"decision": "confirm"}).status_code == 404
    review.refresh_from_db()
    assert review.resolved_at is None and review.entity.drift_flagged
