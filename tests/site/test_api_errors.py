"""Errors under /api/ are JSON even where no API view answers: an unknown path (404) or a crash (500)."""
from django.test import Client


def test_an_unknown_api_path_is_a_json_404_and_a_console_path_keeps_its_page(alice_api):
    response = alice_api.get("/api/v1/no-such-endpoint")
    assert (response.status_code, response["Content-Type"]) == (404, "application/json")
    assert response.json() == {"error": "not_found", "message": "No API endpoint at /api/v1/no-such-endpoint."}
    page = Client().get("/no-such-page/")
    assert page.status_code == 404 and page["Content-Type"].startswith("text/html")


def test_a_crash_inside_an_api_view_is_a_json_500(db, monkeypatch):
    def crash():
        raise RuntimeError("boom")

    monkeypatch.setattr("memories.api.views.readiness", crash)
    response = Client(raise_request_exception=False).get("/api/v1/ready")
    assert (response.status_code, response["Content-Type"]) == (500, "application/json")
    assert response.json()["error"] == "server_error" and "boom" not in response.content.decode()
