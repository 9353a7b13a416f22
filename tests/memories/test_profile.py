from audit.models import AuditEvent
from memories.models import UserProfile


def test_profile_is_created_lazily_with_theo(alice_api):
    assert not UserProfile.objects.exists()
    body = alice_api.get("/api/v1/profile", {"user_id": "alice"}).json()
    assert body["assistant_name"] == "Theo"
    assert body["name"] == "" and body["preferences"] == {} and body["favorites"] == {}
    assert UserProfile.objects.filter(user_id="alice").exists()


def test_update_user_profile(alice_api):
    response = alice_api.post(
        "/api/v1/update_user_profile",
        {"user_id": "alice", "name": "Alice", "favorites": {"coffee": "flat white"}},
        format="json",
    )
    assert response.status_code == 200
    assert alice_api.get("/api/v1/profile", {"user_id": "alice"}).json()["favorites"] == {"coffee": "flat white"}
    assert AuditEvent.objects.filter(action="update_user_profile", user_id="alice").count() == 1


def test_profile_of_another_user_is_forbidden(alice_api):
    assert alice_api.get("/api/v1/profile", {"user_id": "bob"}).status_code == 403
    response = alice_api.post("/api/v1/update_user_profile", {"user_id": "bob", "name": "Mallory"}, format="json")
    assert response.status_code == 403
    assert not UserProfile.objects.filter(user_id="bob").exists()


def test_profile_bad_types_are_400(alice_api):
    response = alice_api.post("/api/v1/update_user_profile", {"user_id": "alice", "favorites": ["tea"]}, format="json")
    assert response.status_code == 400
    assert "favorites" in response.json()["fields"]
