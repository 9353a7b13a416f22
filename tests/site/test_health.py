from rest_framework.test import APIClient


def test_health_and_ready_answer_without_auth(db):
    client = APIClient()
    assert client.get("/api/v1/health").json() == {"status": "ok"}
    ready = client.get("/api/v1/ready")
    assert ready.status_code == 200
    assert ready.json()["database"] == "ok"


def test_openapi_schema_lists_the_endpoints(db, alice_api):
    schema = alice_api.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    for path in ("/api/v1/remember_memory", "/api/v1/forget_memory", "/api/v1/update_user_profile"):
        assert path in schema["paths"]


def test_api_docs_page_is_served_without_a_cdn(db, client):
    page = client.get("/api/docs/")
    assert page.status_code == 200
    assert "cdn" not in page.content.decode().lower()
