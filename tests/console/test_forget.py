"""Forget page: deletion request → dry-run counts → confirm → the audit entry."""
from audit.models import AuditEvent
from entities.models import Entity, EntityMention
from memories.models import Memory
from tests import factories


def _sarah_world():
    sarah = factories.person("alice", "Sarah Chen")
    factories.memory("alice", "lunch with Sarah on Thursday", type="event", session_id="s-lunch", entities=[sarah])
    factories.memory("alice", "also ordered dessert", session_id="s-lunch")
    EntityMention.objects.create(user_id="alice", entity=sarah, session_id="s-lunch")
    keep = factories.memory("alice", "lives in Berlin", type="fact", session_id="s-home")
    return sarah, keep


def test_form_lists_own_entities_and_sessions_only(alice_client, bob_secret):
    sarah, _ = _sarah_world()
    factories.person("bob", "Bob's Boss")
    page = alice_client.get("/forget/").content.decode()
    assert f'value="{sarah.public_id}"' in page and "s-lunch" in page
    assert "Bob&#x27;s Boss" not in page and "Bob's Boss" not in page and "s-bob" not in page


def test_entity_dry_run_then_confirm_shows_audit_entry(alice_client):
    sarah, keep = _sarah_world()
    preview = alice_client.post("/forget/", {"kind": "entity", "entity": sarah.public_id,
                                             "reason": "correction"})
    page = preview.content.decode()
    assert preview.status_code == 200 and "nothing deleted yet" in page and "Delete for good" in page
    assert 'id="dry-run-counts"' in page and "<th scope=\"row\">Memories</th><td>2</td>" in page
    # The items themselves, so the dessert swept in from the same lunch is seen before confirming.
    assert "2 memories that would go" in page and "also ordered dessert" in page and "lunch with Sarah" in page
    assert "<strong>Sarah Chen</strong>" in page and "1 session forgotten: <code>s-lunch</code>" in page
    assert Memory.objects.filter(user_id="alice").count() == 3 and not AuditEvent.objects.exists()

    response = alice_client.post("/forget/", {"kind": "entity", "entity": sarah.public_id, "step": "confirm",
                                              "reason": "correction"}, follow=True)
    event = AuditEvent.objects.get(action="hard_delete")
    assert response.redirect_chain[-1][0] == f"/audit/{event.pk}/"
    page = response.content.decode()
    assert "Hard delete" in page and sarah.public_id in page and "Forgotten for good: 2 memories." in page
    assert event.reason == "correction" and "Wrong or mistaken memory" in page
    assert list(Memory.objects.filter(user_id="alice")) == [keep]
    assert not Entity.objects.filter(pk=sarah.pk, canonical_name="Sarah Chen").exists()


def test_session_forget(alice_client):
    _, keep = _sarah_world()
    alice_client.post("/forget/", {"kind": "session", "session": "s-lunch", "step": "confirm"})
    assert list(Memory.objects.filter(user_id="alice")) == [keep]
    assert AuditEvent.objects.get().target_ids["source_session"] == ["s-lunch"]


def test_memory_forget_prefilled_from_memory_page(alice_client, review_item):
    page = alice_client.get("/forget/", {"kind": "memory", "memory_id": review_item.pk}).content.decode()
    assert f'value="{review_item.pk}"' in page
    alice_client.post("/forget/", {"kind": "memory", "memory_id": review_item.pk, "step": "confirm"})
    assert not Memory.objects.filter(pk=review_item.pk).exists()


def test_filter_forget_by_type_and_date(alice_client):
    _, keep = _sarah_world()
    preview = alice_client.post("/forget/", {"kind": "filter", "types": ["event"], "before": "2999-01-01"})
    assert "<th scope=\"row\">Memories</th><td>1</td>" in preview.content.decode()
    alice_client.post("/forget/", {"kind": "filter", "types": ["event"], "before": "2999-01-01", "step": "confirm"})
    assert Memory.objects.filter(user_id="alice").count() == 2
    assert not Memory.objects.filter(type="event").exists()


def test_missing_target_is_a_form_error(alice_client):
    _sarah_world()
    for data, message in [
        ({"kind": "entity"}, "Choose who or what to forget."),
        ({"kind": "session"}, "Choose the session to forget."),
        ({"kind": "memory"}, "Find the memory by its words and pick it, or enter its id."),
        ({"kind": "filter"}, "Pick at least one type or a date"),
        ({"kind": "session", "session": "not-a-session"}, "Select a valid choice"),
        ({"kind": "filter", "before": "yesterday-ish"}, "Enter a valid date."),
    ]:
        response = alice_client.post("/forget/", {**data, "step": "confirm"})
        assert response.status_code == 400 and message in response.content.decode()
    assert Memory.objects.filter(user_id="alice").count() == 3 and not AuditEvent.objects.exists()


def test_another_users_memory_or_entity_cannot_be_forgotten(alice_client, bob_secret):
    bobs_person = factories.person("bob", "Carol")
    response = alice_client.post("/forget/", {"kind": "memory", "memory_id": bob_secret.pk, "step": "confirm"})
    missing = alice_client.post("/forget/", {"kind": "memory", "memory_id": 999999, "step": "confirm"})
    assert response.status_code == missing.status_code == 400
    assert f"There is no memory #{bob_secret.pk} for this user." in response.content.decode()
    assert "surprise" not in response.content.decode()
    response = alice_client.post("/forget/", {"kind": "entity", "entity": bobs_person.public_id, "step": "confirm"})
    assert response.status_code == 400
    assert Memory.objects.filter(pk=bob_secret.pk).exists() and Entity.objects.filter(pk=bobs_person.pk).exists()
    assert not AuditEvent.objects.exists()


def test_one_memory_is_found_by_its_words_and_picked(alice_client, bob_secret):
    _, keep = _sarah_world()
    factories.memory("bob", "bob lives in Berlin too", type="fact")
    page = alice_client.get("/forget/?kind=memory").content.decode()
    assert 'hx-post="/forget/memories/"' in page and 'name="memory_q"' in page
    found = alice_client.post("/forget/memories/", {"memory_q": "berlin LIVES"}).content.decode()
    assert f'name="memory_id" value="{keep.pk}"' in found and "lives in Berlin" in found
    assert "bob lives" not in found and found.count('type="radio"') == 1
    assert "surprise" not in alice_client.post("/forget/memories/", {"memory_q": "surprise"}).content.decode()
    assert "None of your memories" in alice_client.post("/forget/memories/", {"memory_q": "surprise"}).content.decode()
    # The picked radio and the empty id box both send memory_id: the one filled in counts.
    preview = alice_client.post("/forget/", {"kind": "memory", "memory_id": [str(keep.pk), ""]})
    assert preview.status_code == 200 and "lives in Berlin" in preview.content.decode()
    alice_client.post("/forget/", {"kind": "memory", "memory_id": ["", str(keep.pk)], "step": "confirm"})
    assert not Memory.objects.filter(pk=keep.pk).exists()


def test_the_memory_search_shows_at_most_ten_and_needs_a_login_and_a_post(alice_client, client):
    for number in range(12):
        factories.memory("alice", f"note {number} about the garden")
    found = alice_client.post("/forget/memories/", {"memory_q": "garden"}).content.decode()
    assert found.count('type="radio"') == 10
    assert alice_client.get("/forget/memories/?memory_q=garden").status_code == 405
    assert client.post("/forget/memories/", {"memory_q": "garden"}).status_code == 302  # to the login page


def test_typing_an_id_still_works(alice_client):
    _, keep = _sarah_world()
    preview = alice_client.post("/forget/", {"kind": "memory", "memory_id": keep.pk})
    assert preview.status_code == 200 and "lives in Berlin" in preview.content.decode()
