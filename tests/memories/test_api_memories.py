"""remember_memory, list/get/update and user isolation over the API."""
from audit.models import AuditEvent
from memories.models import Memory
from tests import factories


def remember(api, **body):
    payload = {"user_id": "alice", "session_id": "s1", "content": "prefers concise answers"} | body
    return api.post("/api/v1/remember_memory", payload, format="json")


def test_remember_memory_stores_a_manual_memory(alice_api):
    response = remember(alice_api, pinned=True, type="preference", entities=["Sarah Chen"])
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["source"] == "manual_tool"
    assert body["pinned"] is True
    assert body["session_id"] == "s1"
    assert [e["name"] for e in body["entities"]] == ["Sarah Chen"]
    assert body["entities"][0]["id"].startswith("ent_")
    assert Memory.objects.get(pk=body["id"]).user_id == "alice"


def test_list_filters_by_type_and_pinned(alice_api):
    factories.memory(content="lives in Berlin", type="fact")
    factories.memory(content="prefers tea", type="preference", pinned=True)
    body = alice_api.get("/api/v1/memories", {"user_id": "alice", "pinned": "true"}).json()
    assert [m["content"] for m in body["results"]] == ["prefers tea"]
    body = alice_api.get("/api/v1/memories", {"user_id": "alice", "type": "fact"}).json()
    assert [m["content"] for m in body["results"]] == ["lives in Berlin"]


def test_update_memory(alice_api):
    row = factories.memory(content="prefers tea")
    response = alice_api.patch(f"/api/v1/memories/{row.pk}", {"content": "prefers green tea", "pinned": True}, format="json")
    assert response.status_code == 200
    row.refresh_from_db()
    assert (row.content, row.pinned) == ("prefers green tea", True)


def test_granted_account_cannot_see_or_touch_another_users_memory(alice_api, bob):
    theirs = factories.memory(user_id="bob", content="bob's secret plan")
    assert alice_api.get(f"/api/v1/memories/{theirs.pk}").status_code == 404
    assert alice_api.patch(f"/api/v1/memories/{theirs.pk}", {"content": "x"}, format="json").status_code == 404
    assert alice_api.delete(f"/api/v1/memories/{theirs.pk}").status_code == 404
    forget = alice_api.post("/api/v1/forget_memory", {"user_id": "alice", "memory_id": theirs.pk}, format="json")
    assert forget.status_code == 404
    # A missing id and someone else's id look the same: no existence leak.
    assert alice_api.get("/api/v1/memories/999999").json() == alice_api.get(f"/api/v1/memories/{theirs.pk}").json()
    assert Memory.objects.get(pk=theirs.pk).content == "bob's secret plan"


def test_asking_for_an_ungranted_user_id_is_403_json(alice_api):
    factories.memory(user_id="bob", content="bob's secret plan")
    response = alice_api.get("/api/v1/memories", {"user_id": "bob"})
    assert response.status_code == 403
    assert "may not act for user_id 'bob'" in response.json()["message"]
    assert remember(alice_api, user_id="bob").status_code == 403
    assert not Memory.objects.filter(user_id="bob").exclude(content="bob's secret plan").exists()


def test_staff_may_act_for_any_user(staff_api):
    factories.memory(user_id="bob", content="bob's secret plan")
    body = staff_api.get("/api/v1/memories", {"user_id": "bob"}).json()
    assert [m["content"] for m in body["results"]] == ["bob's secret plan"]


def test_unauthenticated_requests_are_refused(client, db):
    response = client.get("/api/v1/memories")
    assert response.status_code in (401, 403)
    assert "message" in response.json()


def test_malformed_json_is_400_and_writes_nothing(alice_api):
    response = alice_api.post("/api/v1/remember_memory", "{not json", content_type="application/json")
    assert response.status_code == 400
    assert response.json()["message"]
    assert Memory.objects.count() == 0


def test_wrong_types_are_400_with_the_field_named(alice_api):
    response = remember(alice_api, confidence="very", pinned="maybe")
    assert response.status_code == 400
    body = response.json()
    assert set(body["fields"]) == {"confidence", "pinned"}
    assert Memory.objects.count() == 0
    response = remember(alice_api, type="gossip")
    assert response.status_code == 400 and "type" in response.json()["message"]


def test_missing_session_id_is_400(alice_api):
    response = alice_api.post("/api/v1/remember_memory", {"user_id": "alice", "content": "x"}, format="json")
    assert response.status_code == 400
    assert "session_id" in response.json()["fields"]


def test_forget_memory_removes_the_row_and_audits_without_content(alice_api):
    row = factories.memory(content="allergic to penicillin", domain="health")
    response = alice_api.post("/api/v1/forget_memory", {"user_id": "alice", "memory_id": row.pk}, format="json")
    assert response.status_code == 200
    assert not Memory.objects.filter(pk=row.pk).exists()
    event = AuditEvent.objects.get(action="forget_memory")
    assert event.actor == "alice" and event.user_id == "alice"
    assert event.target_ids == {"memory_ids": [row.pk]}
    flat = f"{event.target_ids} {event.counts} {event.reason}"
    assert "penicillin" not in flat and "allergic" not in flat


def test_a_memory_shows_its_update_chain_oldest_first(alice_api):
    from datetime import timedelta

    from tests.pipeline.conftest import MONDAY, ingest

    ingest("The build of our app takes 11 minutes on CI.")
    ingest("The build now takes 7 minutes after splitting the tests.", at=MONDAY + timedelta(days=2), session_id="s2")
    ingest("Good news: the build now takes 4 minutes with caching.", at=MONDAY + timedelta(days=4), session_id="s3")
    ingest("The staging database holds 120 tables.", at=MONDAY + timedelta(days=5), session_id="s4")
    ingest("The staging database holds 140 tables, I counted again.", at=MONDAY + timedelta(days=6), session_id="s5")
    middle = Memory.objects.get(content__contains="7 minutes")
    other_user = factories.memory("bob", "bob's build takes 2 minutes", details={"updates": [middle.pk]})
    body = alice_api.get(f"/api/v1/memories/{middle.pk}").json()
    chain = body["update_chain"]
    assert [link["content"].split(" minutes")[0][-2:].strip() for link in chain] == ["11", "7", "4"]
    assert [link["status"] for link in chain] == ["superseded", "superseded", "active"]
    assert chain[0]["superseded_by"] == middle.pk and other_user.pk not in [link["id"] for link in chain]
    tables = alice_api.get(f"/api/v1/memories/{Memory.objects.get(content__contains='120 tables').pk}").json()
    assert [link["status"] for link in tables["update_chain"]] == ["active", "active"]  # linked, both kept
    lone = factories.memory(content="prefers tea")
    assert alice_api.get(f"/api/v1/memories/{lone.pk}").json()["update_chain"] == []
