"""Relations API: list and create typed edges, scoped to one user."""
import pytest

from audit.models import AuditEvent
from entities.models import Relation
from tests import factories


@pytest.fixture
def people(db):
    sarah, alex = factories.person(name="Sarah Chen"), factories.person(name="Alex")
    factories.relation(alex, "partner_of", sarah)
    return sarah, alex


def test_list_relations_with_filters(alice_api, people):
    sarah, alex = people
    acme = factories.person(name="Acme", kind="org")
    factories.relation(sarah, "works_at", acme)
    everything = alice_api.get("/api/v1/relations", {"user_id": "alice"}).json()["results"]
    assert {r["predicate"] for r in everything} == {"partner_of", "works_at"}
    of_alex = alice_api.get("/api/v1/relations", {"user_id": "alice", "entity": alex.public_id}).json()["results"]
    assert [(r["subject"]["name"], r["object"]["name"]) for r in of_alex] == [("Alex", "Sarah Chen")]
    works = alice_api.get("/api/v1/relations", {"user_id": "alice", "predicate": "works_at"}).json()["results"]
    assert [r["object"]["id"] for r in works] == [acme.public_id]


def test_create_relation(alice_api, people):
    sarah, alex = people
    response = alice_api.post("/api/v1/relations", {"user_id": "alice", "subject": sarah.public_id,
                                                    "predicate": "roommate_of", "object": alex.public_id,
                                                    "confidence": 0.8}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert (body["subject"]["id"], body["predicate"], body["object"]["id"], body["confidence"]) == (
        sarah.public_id, "roommate_of", alex.public_id, 0.8)
    event = AuditEvent.objects.get(action="relation_create")
    assert event.target_ids["subject"] == sarah.public_id


def test_create_relation_rejects_bad_input_without_writing(alice_api, people):
    sarah, alex = people
    base = {"user_id": "alice", "subject": sarah.public_id, "object": alex.public_id}
    bad_predicate = alice_api.post("/api/v1/relations", {**base, "predicate": "Is The Partner!"}, format="json")
    assert bad_predicate.status_code == 400 and "predicate" in bad_predicate.json()["fields"]
    loop = alice_api.post("/api/v1/relations", {**base, "object": sarah.public_id, "predicate": "knows"},
                          format="json")
    assert loop.status_code == 400
    missing = alice_api.post("/api/v1/relations", {"user_id": "alice", "predicate": "knows"}, format="json")
    assert missing.status_code == 400
    assert Relation.objects.count() == 1


def test_other_users_relations_are_hidden(alice_api, bob_api, people):
    sarah, alex = people
    assert bob_api.get("/api/v1/relations", {"user_id": "bob"}).json()["results"] == []
    assert bob_api.get("/api/v1/relations", {"user_id": "bob", "entity": sarah.public_id}).status_code == 404
    assert bob_api.get("/api/v1/relations", {"user_id": "alice"}).status_code == 403
    bobs = factories.person(user_id="bob", name="Bo")
    cross = bob_api.post("/api/v1/relations", {"user_id": "bob", "subject": bobs.public_id, "predicate": "knows",
                                               "object": sarah.public_id}, format="json")
    assert cross.status_code == 404
    assert Relation.objects.count() == 1


def test_delete_relation_removes_it_for_good_with_an_audit_row(alice_api, bob_api, people):
    sarah, alex = people
    relation = Relation.objects.get()
    url = f"/api/v1/relations/{relation.pk}"
    shown = alice_api.get(url, {"user_id": "alice"}).json()
    assert (shown["subject"]["name"], shown["predicate"], shown["object"]["name"]) == ("Alex", "partner_of",
                                                                                       "Sarah Chen")
    assert bob_api.delete(f"{url}?user_id=bob").status_code == 404  # not bob's
    assert bob_api.delete(f"{url}?user_id=alice").status_code == 403
    assert alice_api.delete(f"{url}?user_id=alice").status_code == 204
    assert not Relation.objects.exists()
    assert alice_api.get("/api/v1/relations", {"user_id": "alice"}).json()["results"] == []
    assert alice_api.delete(f"{url}?user_id=alice").status_code == 404
    event = AuditEvent.objects.get(action="relation_delete")
    assert (event.target_ids, event.counts) == ({"relation": relation.pk}, {"relations": 1, "tombstones": 0})
    assert "Sarah" not in str(event.target_ids) + event.reason


def test_deleting_the_last_edge_to_a_forgotten_person_removes_the_tombstone(alice_api, people):
    from entities.models import Entity

    sarah, alex = people
    forgot = alice_api.post("/api/v1/delete", {"scope": {"user_id": "alice"},
                                               "filter": {"entity_refs": [sarah.public_id], "hard": True}},
                            format="json")
    assert forgot.status_code == 200, forgot.content
    tombstone = Entity.objects.get(pk=sarah.pk)
    assert tombstone.deleted_at is not None  # kept: Alex's partner_of edge still points at it
    relation = Relation.objects.get()
    assert alice_api.delete(f"/api/v1/relations/{relation.pk}?user_id=alice").status_code == 204
    assert not Entity.objects.filter(pk=sarah.pk).exists()
    assert Entity.objects.filter(pk=alex.pk, deleted_at__isnull=True).exists()
    assert AuditEvent.objects.get(action="relation_delete").counts == {"relations": 1, "tombstones": 1}
