"""Memory browser and memory detail: filters, pagination, history, ownership."""
from memories.models import Memory, MemoryHistory
from memories.services import history_record
from tests import factories


def test_list_shows_only_own_memories(alice_client, review_item, bob_secret):
    page = alice_client.get("/memories/").content.decode()
    assert "likes flat white coffee" in page and "surprise party" not in page


def test_filters_by_type_domain_status_session_and_pinned(alice_client):
    factories.memory("alice", "lives in Berlin", type="fact", session_id="s1")
    factories.memory("alice", "allergic to penicillin", type="fact", domain="health", session_id="s2", sensitive=True)
    factories.memory("alice", "prefers concise answers", session_id="s2", pinned=True)
    factories.memory("alice", "used to live in Paris", type="fact", session_id="s0", status="superseded")

    def shown(query):
        page = alice_client.get("/memories/", query).content.decode()
        return {text for text in ("lives in Berlin", "allergic to penicillin", "prefers concise answers",
                                  "used to live in Paris") if text in page}

    assert shown({"type": "fact", "status": "active"}) == {"lives in Berlin", "allergic to penicillin"}
    assert shown({"domain": "health"}) == {"allergic to penicillin"}
    assert shown({"session": "s2"}) == {"allergic to penicillin", "prefers concise answers"}
    assert shown({"pinned": "yes"}) == {"prefers concise answers"}
    assert shown({"status": "superseded"}) == {"used to live in Paris"}
    assert "No memories match these filters." in alice_client.get("/memories/", {"session": "nope"}).content.decode()


def test_bad_filter_values_are_ignored_not_500(alice_client, review_item):
    response = alice_client.get("/memories/", {"type": "bogus", "page": "abc"})
    assert response.status_code == 200 and "likes flat white coffee" in response.content.decode()


def test_pagination_keeps_filters(alice_client):
    for index in range(30):
        factories.memory("alice", f"note number {index}", type="fact")
    first = alice_client.get("/memories/", {"type": "fact"}).content.decode()
    assert "Page 1 of 2" in first and "type=fact&amp;page=2" in first
    second = alice_client.get("/memories/", {"type": "fact", "page": 2}).content.decode()
    assert "note number 0" in second and "note number 29" not in second


def test_detail_shows_history_supersession_and_entities(alice_client):
    sarah = factories.person("alice", "Sarah Chen")
    old = factories.memory("alice", "Sarah lives in Paris", type="fact", entities=[sarah])
    new = factories.memory("alice", "Sarah lives in Berlin", type="fact", entities=[sarah])
    Memory.objects.filter(pk=old.pk).update(status="superseded", superseded_by=new)
    history_record(old, "superseded", related_memory_id=new.pk)
    history_record(new, "reinforced", session_id="s9")
    old_page = alice_client.get(f"/memories/{old.pk}/").content.decode()
    assert "Superseded" in old_page and f'href="/memories/{new.pk}/"' in old_page
    assert "Sarah Chen" in old_page and f"/entities/{sarah.public_id}/" in old_page
    new_page = alice_client.get(f"/memories/{new.pk}/").content.decode()
    assert "Reinforced" in new_page and "s9" in new_page and "Updates, oldest first" in new_page
    assert "Sarah lives in Paris" in new_page


def test_history_link_to_a_deleted_memory_is_not_a_link(alice_client, review_item):
    MemoryHistory.objects.create(user_id="alice", memory=review_item, action="superseded", related_memory_id=424242)
    page = alice_client.get(f"/memories/{review_item.pk}/").content.decode()
    assert "memory #424242" in page and "/memories/424242/" not in page


def test_detail_of_another_users_memory_is_404(alice_client, bob_secret):
    response = alice_client.get(f"/memories/{bob_secret.pk}/")
    assert response.status_code == 404 and "surprise" not in response.content.decode()
    assert alice_client.get("/memories/987654/").status_code == 404
