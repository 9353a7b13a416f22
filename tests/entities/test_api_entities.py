"""Entities API: list, detail, resolve, graph, merge, aliases — each with the other-user case."""
import pytest
from django.utils import timezone

from audit.models import AuditEvent
from entities.models import Alias, Entity
from entities.services import alias_add, mentions_record
from tests import factories


@pytest.fixture
def graph(db):
    sarah = factories.person(name="Sarah Chen")
    alias_add(entity=sarah, alias="Sally")
    alex = factories.person(name="Alex")
    acme = factories.person(name="Acme Corp", kind="org")
    berlin = factories.person(name="Berlin", kind="place")
    factories.relation(alex, "partner_of", sarah)
    factories.relation(sarah, "works_at", acme)
    factories.relation(acme, "located_in", berlin)
    factories.memory(content="lunch with Sarah", type="event", entities=[sarah])
    factories.memory(content="Sarah likes tea", entities=[sarah])
    mentions_record(entities=[sarah], session_id="s1")
    mentions_record(entities=[sarah], session_id="s2")
    mentions_record(entities=[sarah], session_id="s2")
    return {"sarah": sarah, "alex": alex, "acme": acme, "berlin": berlin}


def test_list_shows_counts_and_aliases(alice_api, graph):
    response = alice_api.get("/api/v1/entities", {"user_id": "alice"})
    assert response.status_code == 200
    rows = {row["name"]: row for row in response.json()["results"]}
    assert set(rows) == {"Sarah Chen", "Alex", "Acme Corp", "Berlin"}
    sarah = rows["Sarah Chen"]
    assert (sarah["memory_count"], sarah["mention_session_count"]) == (2, 2)
    assert {a["alias"] for a in sarah["aliases"]} == {"Sarah Chen", "Sally"}
    assert sarah["id"] == graph["sarah"].public_id


def test_list_search_and_kind_filter(alice_api, graph):
    by_alias = alice_api.get("/api/v1/entities", {"user_id": "alice", "q": "sall"}).json()["results"]
    assert [row["name"] for row in by_alias] == ["Sarah Chen"]
    orgs = alice_api.get("/api/v1/entities", {"user_id": "alice", "kind": "org"}).json()["results"]
    assert [row["name"] for row in orgs] == ["Acme Corp"]
    assert alice_api.get("/api/v1/entities", {"user_id": "alice", "kind": "planet"}).status_code == 400


def test_tombstones_are_never_listed_or_resolved(alice_api, graph):
    Entity.objects.filter(pk=graph["alex"].pk).update(deleted_at=timezone.now(), canonical_name="")
    names = [row["name"] for row in alice_api.get("/api/v1/entities", {"user_id": "alice"}).json()["results"]]
    assert "Alex" not in names and "" not in names
    assert alice_api.get(f"/api/v1/entities/{graph['alex'].public_id}", {"user_id": "alice"}).status_code == 404
    resolved = alice_api.post("/api/v1/entities/resolve", {"user_id": "alice", "mention": "Alex"}, format="json")
    assert resolved.json()["entity"] is None


def test_other_users_entities_are_hidden(alice_api, bob_api, graph):
    assert bob_api.get("/api/v1/entities", {"user_id": "bob"}).json()["results"] == []
    sarah_id = graph["sarah"].public_id
    assert bob_api.get(f"/api/v1/entities/{sarah_id}", {"user_id": "bob"}).status_code == 404
    assert bob_api.get(f"/api/v1/entities/{sarah_id}/graph", {"user_id": "bob"}).status_code == 404
    assert bob_api.get("/api/v1/entities", {"user_id": "alice"}).status_code == 403
    assert bob_api.get(f"/api/v1/entities/{sarah_id}", {"user_id": "alice"}).status_code == 403


def test_detail_has_relations_and_memories(alice_api, graph):
    body = alice_api.get(f"/api/v1/entities/{graph['sarah'].public_id}", {"user_id": "alice"}).json()
    assert {(r["subject"]["name"], r["predicate"], r["object"]["name"]) for r in body["relations"]} == {
        ("Alex", "partner_of", "Sarah Chen"), ("Sarah Chen", "works_at", "Acme Corp")}
    assert {m["content"] for m in body["memories"]} == {"lunch with Sarah", "Sarah likes tea"}


def test_resolve_returns_entity_method_and_score(alice_api, graph):
    body = alice_api.post("/api/v1/entities/resolve", {"user_id": "alice", "mention": "sally"}, format="json").json()
    assert (body["entity"]["id"], body["method"], body["score"]) == (graph["sarah"].public_id, "alias", 1.0)
    nobody = alice_api.post("/api/v1/entities/resolve", {"user_id": "alice", "mention": "Zed"}, format="json").json()
    assert (nobody["entity"], nobody["method"]) == (None, "unresolved")


def test_resolve_reports_ambiguous_candidates(alice_api, graph):
    factories.person(name="Sarah Miller")
    body = alice_api.post("/api/v1/entities/resolve", {"user_id": "alice", "mention": "Sarah"}, format="json").json()
    assert body["method"] == "ambiguous" and body["entity"] is None
    assert {c["name"] for c in body["candidates"]} == {"Sarah Chen", "Sarah Miller"}


def test_resolve_validates_and_scopes(alice_api, bob_api, graph):
    missing = alice_api.post("/api/v1/entities/resolve", {"user_id": "alice"}, format="json")
    assert missing.status_code == 400 and missing.json()["error"] == "invalid"
    assert "mention" in missing.json()["fields"]
    theirs = bob_api.post("/api/v1/entities/resolve", {"user_id": "bob", "mention": "Sarah Chen"}, format="json")
    assert theirs.json()["entity"] is None


def test_graph_walks_two_hops_by_default(alice_api, graph):
    body = alice_api.get(f"/api/v1/entities/{graph['alex'].public_id}/graph", {"user_id": "alice"}).json()
    assert body["hop"] == 2 and body["root"] == graph["alex"].public_id
    depths = {node["name"]: node["depth"] for node in body["nodes"]}
    assert depths == {"Alex": 0, "Sarah Chen": 1, "Acme Corp": 2}
    assert {(e["predicate"], e["depth"]) for e in body["edges"]} == {("partner_of", 1), ("works_at", 2)}
    three = alice_api.get(f"/api/v1/entities/{graph['alex'].public_id}/graph", {"user_id": "alice", "hop": 3}).json()
    assert "Berlin" in {node["name"] for node in three["nodes"]}


def test_graph_rejects_a_hop_beyond_the_limit(alice_api, graph):
    response = alice_api.get(f"/api/v1/entities/{graph['alex'].public_id}/graph", {"user_id": "alice", "hop": 9})
    assert response.status_code == 400 and "hop" in response.json()["message"]


def test_merge_endpoint(alice_api, graph):
    loser = factories.person(name="Sarah C.")
    factories.memory(content="Sarah C. called", entities=[loser])
    response = alice_api.post("/api/v1/entities/merge", {"user_id": "alice", "winner": graph["sarah"].public_id,
                                                         "loser": loser.public_id}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["winner"]["memory_count"] == 3 and body["counts"]["memory_links"] == 1
    assert "Sarah C." in {a["alias"] for a in body["winner"]["aliases"]}
    assert alice_api.get(f"/api/v1/entities/{loser.public_id}", {"user_id": "alice"}).status_code == 404


def test_merge_errors(alice_api, bob_api, graph):
    sarah_id = graph["sarah"].public_id
    same = alice_api.post("/api/v1/entities/merge", {"user_id": "alice", "winner": sarah_id, "loser": sarah_id},
                          format="json")
    assert same.status_code == 400 and "itself" in same.json()["message"]
    bobs = factories.person(user_id="bob", name="Sarah C.")
    cross = alice_api.post("/api/v1/entities/merge", {"user_id": "alice", "winner": sarah_id,
                                                      "loser": bobs.public_id}, format="json")
    assert cross.status_code == 404
    stolen = bob_api.post("/api/v1/entities/merge", {"user_id": "bob", "winner": bobs.public_id,
                                                     "loser": sarah_id}, format="json")
    assert stolen.status_code == 404
    assert Entity.objects.filter(pk__in=[graph["sarah"].pk, bobs.pk]).count() == 2
    assert not AuditEvent.objects.filter(action="entity_merge").exists()


def test_aliases_add_and_remove(alice_api, graph):
    url = f"/api/v1/entities/{graph['sarah'].public_id}/aliases"
    added = alice_api.post(url, {"user_id": "alice", "alias": "Dr. Chen"}, format="json")
    assert added.status_code == 201
    assert "Dr. Chen" in {a["alias"] for a in added.json()["aliases"]}
    assert Alias.objects.get(entity=graph["sarah"], normalized="dr chen").origin == "manual"
    role = alice_api.post(url, {"user_id": "alice", "alias": "my boss"}, format="json").json()
    assert {a["normalized"]: a["origin"] for a in role["aliases"]}["my manager"] == "role"
    removed = alice_api.delete(url, {"user_id": "alice", "alias": "sally"}, format="json")
    assert removed.status_code == 200
    assert "Sally" not in {a["alias"] for a in removed.json()["aliases"]}
    events = AuditEvent.objects.filter(action__startswith="entity_alias").values_list("action", "target_ids")
    assert list(events.order_by("id")) == [("entity_alias_add", {"entity": graph["sarah"].public_id})] * 2 + [
        ("entity_alias_remove", {"entity": graph["sarah"].public_id})]


def test_alias_errors_and_other_user(alice_api, bob_api, graph):
    url = f"/api/v1/entities/{graph['sarah'].public_id}/aliases"
    assert alice_api.post(url, {"user_id": "alice", "alias": "!!"}, format="json").status_code == 400
    unknown = alice_api.delete(url, {"user_id": "alice", "alias": "Nobody"}, format="json")
    assert unknown.status_code == 400 and "no such alias" in unknown.json()["message"]
    assert bob_api.post(url, {"user_id": "bob", "alias": "Mine"}, format="json").status_code == 404
    assert bob_api.delete(url, {"user_id": "bob", "alias": "Sally"}, format="json").status_code == 404
    assert Alias.objects.filter(entity=graph["sarah"]).count() == 2


def test_resolve_for_another_user_id_is_refused_and_staff_may_act_for_anyone(bob_api, staff_api, graph):
    refused = bob_api.post("/api/v1/entities/resolve", {"user_id": "alice", "mention": "Sally"}, format="json")
    assert refused.status_code == 403 and refused.json()["error"] == "permission_denied"
    listed = staff_api.get("/api/v1/entities", {"user_id": "alice"}).json()["results"]
    assert "Sarah Chen" in {row["name"] for row in listed}
