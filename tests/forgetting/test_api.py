"""POST /api/v1/delete, GET /api/v1/audit, GET /api/v1/metrics, POST /api/v1/memories/<id>/restore."""
import pytest

from audit.models import AuditEvent
from entities.models import Entity
from memories.models import Memory
from tests import factories
from tests.forgetting.conftest import days_ago


def delete(api, **body):
    return api.post("/api/v1/delete", {"scope": {"user_id": "alice"}} | body, format="json")


def test_dry_run_then_hard_delete_sarah(alice_api, sarah_world):
    body = {"filter": {"entity_refs": [sarah_world.sarah.public_id], "hard": True},
            "audit_reason": "User requested: 'forget everything about Sarah'"}
    preview = delete(alice_api, dry_run=True, **body)
    assert preview.status_code == 200, preview.content
    assert preview.json()["dry_run"] is True and preview.json()["counts"]["memories"] == 3
    assert {m["content"] for m in preview.json()["memories"]} == {
        "lunch with Sarah Thursday", "Dr. Chen prefers email", "deadline moved to Friday"}
    assert [(e["name"], e["outcome"]) for e in preview.json()["entities"]] == [("Sarah Chen", "tombstoned")]
    assert Memory.objects.filter(user_id="alice").count() == 5

    done = delete(alice_api, **body)
    assert done.status_code == 200, done.content
    assert done.json()["counts"] == preview.json()["counts"]
    event = AuditEvent.objects.get(pk=done.json()["audit_event_id"])
    assert event.reason == "user_request"
    assert Memory.objects.filter(user_id="alice").count() == 2


def test_delete_by_query_with_a_single_session_id(alice_api, sarah_world):
    response = delete(alice_api, filter={"source_session": "s3", "hard": True})
    assert response.status_code == 200, response.content
    assert response.json()["counts"]["memories"] == 2
    assert not Memory.objects.filter(user_id="alice", session_id="s3").exists()


def test_another_users_entity_or_memory_is_404_and_nothing_changes(alice_api, sarah_world):
    for flt in ({"entity_refs": [sarah_world.bobs_sarah.public_id]}, {"memory_ids": [sarah_world.bobs_memory.pk]}):
        response = delete(alice_api, filter=flt)
        assert response.status_code == 404
        assert response.json()["error"] == "not_found"
    assert Entity.objects.get(pk=sarah_world.bobs_sarah.pk).canonical_name == "Sarah Chen"
    assert Memory.objects.filter(user_id="bob").count() == 1
    assert not AuditEvent.objects.filter(action="hard_delete").exists()


def test_acting_for_an_ungranted_user_id_is_403(alice_api, sarah_world):
    response = alice_api.post("/api/v1/delete", {"scope": {"user_id": "bob"}, "filter": {"source_session": "s1"}},
                              format="json")
    assert response.status_code == 403 and "may not act for user_id 'bob'" in response.json()["message"]
    assert Memory.objects.filter(user_id="bob").count() == 1


@pytest.mark.parametrize("body,field", [
    ({"filter": {}}, "filter"),
    ({"filter": {"types": ["gossip"]}}, "filter"),
    ({"filter": {"source_session": "s1", "hard": False}}, "filter"),
    ({"filter": {"entity_refs": ["ent_x"], "types": ["event"]}}, "filter"),
    ({"filter": {"before": "yesterday"}}, "filter"),
    ({}, "filter"),
])
def test_bad_delete_requests_are_400_json_and_delete_nothing(alice_api, sarah_world, body, field):
    response = delete(alice_api, **body)
    assert response.status_code == 400, response.content
    assert response.json()["error"] == "invalid" and field in response.json()["fields"]
    assert response.json()["message"]
    assert Memory.objects.filter(user_id="alice").count() == 5


def test_audit_log_lists_own_events_with_filters(alice_api, sarah_world):
    delete(alice_api, filter={"source_session": "s3"})
    AuditEvent.objects.create(actor="bob", user_id="bob", action="hard_delete")
    body = alice_api.get("/api/v1/audit", {"user_id": "alice", "action": "hard_delete"}).json()
    assert [(e["action"], e["user_id"]) for e in body["results"]] == [("hard_delete", "alice")]
    assert body["results"][0]["counts"]["memories"] == 2
    assert alice_api.get("/api/v1/audit", {"user_id": "alice", "since": "2999-01-01T00:00Z"}).json()["count"] == 0
    assert alice_api.get("/api/v1/audit", {"user_id": "bob"}).status_code == 403
    bad = alice_api.get("/api/v1/audit", {"user_id": "alice", "since": "soon"})
    assert bad.status_code == 400 and "since" in bad.json()["fields"]


def test_metrics_endpoint_returns_current_values_and_a_12_week_series(alice_api, sarah_world):
    body = alice_api.get("/api/v1/metrics", {"user_id": "alice"}).json()
    assert set(body["current"]) == {"entity_coverage", "avg_memories_per_regular_entity", "entities_created",
                                    "hard_delete_requests", "preference_supersession_rate",
                                    "unresolved_reference_rate"}
    assert body["current"]["entities_created"]["value"] == 3
    assert len(body["series"]) == 12
    assert alice_api.get("/api/v1/metrics", {"user_id": "bob"}).status_code == 403
    assert alice_api.get("/api/v1/metrics", {"user_id": "x" * 200}).status_code == 400


def test_restore_an_expired_memory(alice_api, bob_api, db):
    row = factories.memory(content="dentist appointment", type="event")
    Memory.objects.filter(pk=row.pk).update(status="expired", expired_at=days_ago(3))
    assert bob_api.post(f"/api/v1/memories/{row.pk}/restore").status_code == 404
    assert Memory.objects.get(pk=row.pk).status == "expired"
    response = alice_api.post(f"/api/v1/memories/{row.pk}/restore")
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "active"
    again = alice_api.post(f"/api/v1/memories/{row.pk}/restore")
    assert again.status_code == 400 and "Only expired memories" in again.json()["message"]
    assert AuditEvent.objects.filter(action="memory_restore").count() == 1


def test_forget_memory_audits_ids_only(alice_api, db):
    row = factories.memory(content="knee surgery on Friday", type="event", domain="health")
    response = alice_api.post("/api/v1/forget_memory", {"user_id": "alice", "memory_id": row.pk}, format="json")
    assert response.status_code == 200
    event = AuditEvent.objects.get(action="forget_memory")
    assert event.target_ids == {"memory_ids": [row.pk]}
    assert "surgery" not in f"{event.target_ids} {event.counts} {event.reason}"
