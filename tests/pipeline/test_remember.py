"""remember_memory goes through tag_domain, resolve_refs, reconcile and persist."""
from entities.models import EntityMention
from memories.models import Memory


def remember(api, content, **body):
    payload = {"user_id": "alice", "session_id": "s1", "content": content} | body
    return api.post("/api/v1/remember_memory", payload, format="json")


def test_remembering_the_same_thing_twice_reinforces(alice_api):
    first = remember(alice_api, "Prefers window seats", type="preference").json()
    second = remember(alice_api, "prefers window seats!", type="preference", session_id="s2").json()
    assert second["id"] == first["id"]
    assert (second["occurrences"], second["confidence"]) == (2, 0.7)
    assert Memory.objects.filter(user_id="alice").count() == 1


def test_remember_tags_the_domain_and_records_entity_mentions(alice_api):
    body = remember(alice_api, "Is allergic to cats", entities=["Dr. Weber"]).json()
    assert body["domain"] == "health" and body["sensitive"] is True
    assert [e["name"] for e in body["entities"]] == ["Dr. Weber"]
    assert EntityMention.objects.filter(user_id="alice", session_id="s1", entity__canonical_name="Dr. Weber").exists()


def test_pinning_an_already_known_memory_pins_it(alice_api):
    remember(alice_api, "Prefers window seats", type="preference")
    body = remember(alice_api, "Prefers window seats", type="preference", pinned=True).json()
    assert body["pinned"] is True and body["occurrences"] == 2


def test_remember_for_another_user_is_403_and_writes_nothing(alice_api, bob):
    assert remember(alice_api, "Prefers window seats", user_id="bob").status_code == 403
    assert not Memory.objects.exists()
