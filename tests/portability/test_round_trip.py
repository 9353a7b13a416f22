"""Export → import into a new user id → export again: the same content, ids aside; a second import adds
nothing; a forgotten person never appears in a later export."""
from audit.models import AuditEvent
from entities.models import Entity
from forgetting.criteria import DeleteCriteria
from forgetting.services import hard_delete
from memories.models import Memory, MemoryHistory
from tests import factories
from tests.portability.conftest import memory_count, read_export


def export(api, user_id="alice"):
    return read_export(api.get("/api/v1/export", {"user_id": user_id}))


def without_ids(document: dict) -> dict:
    """The document's content: entity and memory ids become their positions, the header and audit go."""
    entity_ids = {entity["id"]: index for index, entity in enumerate(document["entities"])}
    memory_ids = {memory["id"]: index for index, memory in enumerate(document["memories"])}
    entity = entity_ids.get
    content = {key: value for key, value in document.items()
               if key not in ("user_id", "exported_at", "audit_events")}
    content["entities"] = [{**row, "id": entity(row["id"])} for row in document["entities"]]
    content["relations"] = [{**row, "subject": entity(row["subject"]), "object": entity(row["object"])}
                            for row in document["relations"]]
    content["entity_reviews"] = [{**row, "entity": entity(row["entity"]), "candidate": entity(row["candidate"])}
                                 for row in document["entity_reviews"]]
    content["memories"] = [
        {**row, "id": memory_ids[row["id"]], "superseded_by": memory_ids.get(row["superseded_by"]),
         "subject": entity(row["subject"]), "entities": [{**link, "entity": entity(link["entity"])}
                                                         for link in row["entities"]],
         "history": [{**h, "related_memory_id": memory_ids.get(h["related_memory_id"])} for h in row["history"]]}
        for row in document["memories"]]
    return content


def test_export_holds_everything_about_alice(alice_api, alice_world):
    document = export(alice_api)
    assert (document["format"], document["version"], document["user_id"]) == ("recall-export", 1, "alice")
    assert document["profile"]["favorites"] == {"coffee": "flat white"}
    names = {entity["name"] for entity in document["entities"]}
    assert {"me", "Sarah Chen", "Dana Chen", "Alex"} <= names
    sarah = next(entity for entity in document["entities"] if entity["name"] == "Sarah Chen")
    assert sarah["id"] == alice_world["sarah"].public_id and "Dr. Chen" in {a["alias"] for a in sarah["aliases"]}
    assert {r["predicate"] for r in document["relations"]} >= {"partner_of"}
    assert [(r["kind"], r["entity"]) for r in document["entity_reviews"]] == [
        ("ambiguous_match", alice_world["sarah"].public_id)]
    old = next(m for m in document["memories"] if m["content"] == "lives in Berlin")
    new = next(m for m in document["memories"] if m["content"] == "lives in Munich")
    assert (old["status"], old["superseded_by"], old["pinned"]) == ("superseded", new["id"], True)
    assert [h["action"] for h in old["history"]] == ["created", "superseded"]
    assert old["history"][1]["related_memory_id"] == new["id"]
    assert (new["needs_review"], new["review_reason"], new["details"]) == (True, "auto_memory", {"why": ["moved"]})
    lunch = next(m for m in document["memories"] if "Sarah" in m["content"] and m["session_id"] == "chat-1")
    assert lunch["source_message_ids"] and lunch["entities"]
    assert lunch["source_message_ids"][0] in {m["message_id"] for m in document["source_messages"]}
    assert {"ingest", "update_user_profile"} <= {event["action"] for event in document["audit_events"]}
    assert set(document["audit_events"][0]) == {"id", "action", "target_ids", "counts", "created_at"}
    assert document["unresolved_references"][-1]["mention"] == "the florist"


def test_export_import_export_gives_the_same_content(alice_api, alice_world, alice_copy,
                                                     django_capture_on_commit_callbacks):
    original = export(alice_api)
    with django_capture_on_commit_callbacks(execute=True):
        response = alice_api.post(f"/api/v1/import?user_id={alice_copy}", original, format="json")
    assert response.status_code == 200, response.content
    added = response.json()["added"]
    assert added["memories"] == len(original["memories"]) and added["entities"] == len(original["entities"])
    copy = export(alice_api, alice_copy)
    assert without_ids(copy) == without_ids(original)
    assert not {e["id"] for e in copy["entities"]} & {e["id"] for e in original["entities"]}
    embedded = Memory.objects.filter(user_id=alice_copy, embedding__isnull=False)
    assert embedded.count() == len(original["memories"])  # recomputed by the normal write path
    event = AuditEvent.objects.get(user_id=alice_copy, action="data_import")
    assert event.counts == added and event.target_ids == {"source_user_id": "alice"}


def test_importing_the_same_file_twice_adds_nothing_the_second_time(alice_api, alice_world, alice_copy):
    original = export(alice_api)
    alice_api.post(f"/api/v1/import?user_id={alice_copy}", original, format="json")
    counts = (memory_count(alice_copy), Entity.objects.filter(user_id=alice_copy).count(),
              MemoryHistory.objects.filter(user_id=alice_copy).count())
    again = alice_api.post(f"/api/v1/import?user_id={alice_copy}", original, format="json")
    assert again.status_code == 200, again.content
    assert set(again.json()["added"].values()) == {0}
    assert counts == (memory_count(alice_copy), Entity.objects.filter(user_id=alice_copy).count(),
                      MemoryHistory.objects.filter(user_id=alice_copy).count())
    assert without_ids(export(alice_api, alice_copy)) == without_ids(original)


def test_importing_into_the_same_user_adds_nothing(alice_api, alice_world):
    response = alice_api.post("/api/v1/import?user_id=alice", export(alice_api), format="json")
    assert response.status_code == 200, response.content
    assert set(response.json()["added"].values()) == {0}


def test_a_forgotten_person_never_appears_in_a_later_export(alice_api, alice_world, alice_copy):
    alex = Entity.objects.live().get(user_id="alice", canonical_name="Alex")
    factories.relation(alex, "friend_of", alice_world["dana"])
    hard_delete(user_id="alice", criteria=DeleteCriteria(entity_refs=[alice_world["sarah"].public_id]),
                actor="alice")
    document = export(alice_api)
    text = str({key: value for key, value in document.items() if key != "audit_events"}).lower()
    assert "sarah" not in text and "dr. chen" not in text
    assert alice_world["sarah"].public_id not in text
    assert "Dana Chen" in {entity["name"] for entity in document["entities"]}
    response = alice_api.post(f"/api/v1/import?user_id={alice_copy}", document, format="json")
    assert response.status_code == 200, response.content
    assert "sarah" not in str(export(alice_api, alice_copy)).lower()
