"""An ambiguous name is answered on the waiting memory: the reviewer picks which person it means, or someone
new, and the memory's links move, the name question closes and the memory leaves the queue, audited."""
import pytest

from audit.models import AuditEvent
from entities.models import Entity, EntityReview
from entities.services import ambiguity_review_record
from memories.models import Memory, MemoryEntity, MemoryHistory
from tests import factories
from tests.conftest import logged_in
from tests.pipeline.conftest import ingest

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def two_sarahs(alice):
    chen, miller = factories.person("alice", "Sarah Chen"), factories.person("alice", "Sarah Miller")
    review = ambiguity_review_record(user_id="alice", candidates=[chen, miller])
    memory = factories.memory("alice", "lunch with Sarah on Thursday", type="event", needs_review=True,
                              review_reason="ambiguous_entity", source="auto_reflection", entities=[chen])
    return chen, miller, review, memory


def choose(client, memory, **data):
    return client.post(f"/review/memory/{memory.pk}/person/", data, **HTMX)


def test_the_queue_offers_both_people_and_someone_new(alice_client, two_sarahs):
    chen, miller, _, memory = two_sarahs
    page = alice_client.get("/review/").content.decode()
    assert "Who is ‘Sarah’ here?" in page and f'action="/review/memory/{memory.pk}/person/"' in page
    assert f'value="{chen.public_id}"' in page and f'value="{miller.public_id}"' in page and 'value="new"' in page


def test_choosing_one_of_them_moves_the_links_and_closes_the_question(alice_client, two_sarahs):
    chen, miller, review, memory = two_sarahs
    Memory.objects.filter(pk=memory.pk).update(subject=chen)
    response = choose(alice_client, memory, person=miller.public_id)
    page = response.content.decode()
    assert response.status_code == 200 and "Now about Sarah Miller." in page
    assert f'id="entity-review-{review.pk}" hx-swap-oob="delete"' in page  # the question's card goes too
    assert response["HX-Trigger"] == "reviewChanged"
    memory.refresh_from_db()
    assert list(MemoryEntity.objects.filter(memory=memory).values_list("entity_id", flat=True)) == [miller.pk]
    assert (memory.subject_id, memory.needs_review, memory.review_reason) == (miller.pk, False, "")
    assert EntityReview.objects.get(pk=review.pk).resolved_at is not None
    assert MemoryHistory.objects.filter(memory=memory, action="person_chosen").exists()
    event = AuditEvent.objects.get(action="memory_person_chosen")
    assert event.target_ids == {"memory_ids": [memory.pk], "entity_ids": [miller.public_id], "review_id": review.pk}
    assert "Person chosen for a memory" in alice_client.get("/audit/").content.decode()


def test_someone_new_becomes_a_new_person(alice_client, two_sarahs):
    chen, miller, _, memory = two_sarahs
    response = choose(alice_client, memory, person="new", new_name="Sarah Park")
    assert "Now about Sarah Park." in response.content.decode()
    park = Entity.objects.live().get(user_id="alice", canonical_name="Sarah Park")
    assert list(MemoryEntity.objects.filter(memory=memory).values_list("entity_id", flat=True)) == [park.pk]
    assert AuditEvent.objects.get(action="memory_person_chosen").counts["entities_created"] == 1


def test_someone_new_without_a_name_takes_the_name_as_said(alice_client, two_sarahs):
    choose(alice_client, memory=two_sarahs[3], person="new", new_name="")
    assert Entity.objects.live().filter(user_id="alice", canonical_name="Sarah").exists()


def test_a_person_outside_the_question_is_refused(alice_client, two_sarahs):
    stranger = factories.person("alice", "Tom Becker")
    response = choose(alice_client, two_sarahs[3], person=stranger.public_id)
    assert response.status_code == 400
    assert Memory.objects.get(pk=two_sarahs[3].pk).needs_review
    assert not AuditEvent.objects.filter(action="memory_person_chosen").exists()


def test_another_users_memory_is_404_and_nothing_changes(bob_client, two_sarahs):
    chen, miller, review, memory = two_sarahs
    assert choose(bob_client, memory, person=miller.public_id).status_code == 404
    assert EntityReview.objects.get(pk=review.pk).resolved_at is None


def test_without_htmx_it_returns_to_the_queue_and_needs_csrf(alice, two_sarahs):
    _, miller, _, memory = two_sarahs
    strict = logged_in(alice, enforce_csrf=True)
    assert strict.post(f"/review/memory/{memory.pk}/person/", {"person": miller.public_id}).status_code == 403
    response = strict.get("/review/")
    token = response.cookies["csrftoken"].value
    response = strict.post(f"/review/memory/{memory.pk}/person/",
                           {"person": miller.public_id, "csrfmiddlewaretoken": token})
    assert response.status_code == 302 and response["Location"] == "/review/"


def test_a_memory_without_an_open_question_is_404(alice_client):
    memory = factories.memory("alice", "likes tea", needs_review=True, review_reason="auto_memory")
    assert choose(alice_client, memory, person="new").status_code == 404


def test_an_ambiguous_name_from_ingest_is_resolved_inline(alice_client):
    factories.person("alice", "Sarah Chen")
    miller = factories.person("alice", "Sarah Miller")
    memory = Memory.objects.get(pk=ingest("Lunch with Sarah on Thursday at noon.").memory_ids[0])
    assert memory.needs_review and memory.review_reason == "ambiguous_entity"
    choose(alice_client, memory, person=miller.public_id)
    assert miller.pk in set(MemoryEntity.objects.filter(memory=memory).values_list("entity_id", flat=True))
    assert not Memory.objects.get(pk=memory.pk).needs_review
