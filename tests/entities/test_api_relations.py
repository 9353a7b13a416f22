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
