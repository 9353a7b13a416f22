"""Errors under /api/ are JSON even where no API view answers: an unknown path (404), a crash (500), a
wrong method (405), a body too large (413) or a URI too long (414)."""
from urllib.parse import urlencode

from django.core.files.uploadedfile import SimpleUploadedFile
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

    monkeypatch.setattr("console.api.views.readiness", crash)
    response = Client(raise_request_exception=False).get("/api/v1/ready")
    assert (response.status_code, response["Content-Type"]) == (500, "application/json")
    assert response.json()["error"] == "server_error" and "boom" not in response.content.decode()


def test_a_wrong_method_is_a_json_405_on_api_views_and_on_the_docs_pages(alice_api):
    for path in ("/api/v1/health", "/api/docs/", "/api/schema/"):
        response = alice_api.delete(path)
        assert (response.status_code, response["Content-Type"]) == (405, "application/json"), path
        assert response.json()["error"] == "method_not_allowed" and "GET" in response["Allow"]


def test_an_api_error_asked_for_as_html_is_still_json_with_its_details(alice_api, bob):
    response = alice_api.get("/api/v1/memories", {"user_id": "bob"}, HTTP_ACCEPT="text/html")
    assert (response.status_code, response["Content-Type"]) == (403, "application/json")
    assert response.json()["error"] == "permission_denied"


def test_a_body_over_the_limit_is_a_json_413_and_nothing_is_stored(alice_api, recall_config):
    from memories.models import Memory

    recall_config({"security": {"max_body_bytes": 1000}})
    body = {"user_id": "alice", "session_id": "s", "content": "Prefers window seats " + "x" * 1000}
    response = alice_api.post("/api/v1/remember_memory", body, format="json")
    assert (response.status_code, response["Content-Type"]) == (413, "application/json")
    assert response.json()["error"] == "request_too_large" and not Memory.objects.exists()
    small = alice_api.post("/api/v1/remember_memory", {**body, "content": "Prefers window seats"}, format="json")
    assert small.status_code in (200, 201)


def test_a_contacts_upload_may_be_as_large_as_its_own_limit(alice_api, recall_config):
    recall_config({"security": {"max_body_bytes": 1000}, "contacts": {"max_upload_bytes": 5000}})
    card = b"BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Sarah Chen\r\nNOTE:" + b"x" * 2000 + b"\r\nEND:VCARD\r\n"
    upload = SimpleUploadedFile("contacts.vcf", card, content_type="text/vcard")
    response = alice_api.post("/api/v1/contacts/import", {"user_id": "alice", "file": upload}, format="multipart")
    assert response.status_code == 201, response.content
    too_big = SimpleUploadedFile("contacts.vcf", card * 4, content_type="text/vcard")
    response = alice_api.post("/api/v1/contacts/import", {"user_id": "alice", "file": too_big}, format="multipart")
    assert (response.status_code, response["Content-Type"]) == (413, "application/json")


def test_a_console_form_over_the_limit_is_a_413(alice_client, recall_config, settings):
    recall_config({"security": {"max_body_bytes": 1000}})
    form = urlencode({"name": "x" * 2000, "assistant_name": "Theo"})
    response = alice_client.post("/profile/", form, content_type="application/x-www-form-urlencoded")
    assert response.status_code == 413 and response["Content-Type"].startswith("text/plain")
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000  # a multipart form: found by Django while reading it
    response = alice_client.post("/profile/", {"name": "x" * 2000, "assistant_name": "Theo"})
    assert response.status_code == 413 and response["Content-Type"].startswith("text/plain")


def test_an_overlong_uri_is_a_json_414_under_api_and_plain_text_elsewhere(alice_api, alice_client):
    response = alice_api.get("/api/v1/memories", {"user_id": "alice", "session_id": "s" * 3000})
    assert (response.status_code, response["Content-Type"]) == (414, "application/json")
    assert response.json() == {"error": "uri_too_long", "message": "The URI is longer than 2048 characters."}
    assert alice_api.get("/api/v1/" + "x" * 3000).status_code == 414
    page = alice_client.get("/memories/", {"session": "s" * 3000})
    assert page.status_code == 414 and page["Content-Type"].startswith("text/plain")
    assert alice_api.get("/api/v1/memories", {"user_id": "alice", "session_id": "s" * 100}).status_code == 200


def test_every_api_404_has_the_code_not_found(alice_api, bob):
    """Bob's memory, entity and relation are as unknown to alice as ids that do not exist: one code for all."""
    from tests import factories

    sarah, alex = factories.person(user_id="bob", name="Sarah Chen"), factories.person(user_id="bob", name="Alex")
    memory = factories.memory(user_id="bob", entities=[sarah])
    relation = factories.relation(alex, "partner_of", sarah)
    mine = factories.person(user_id="alice", name="Mine")
    scope = {"user_id": "alice"}
    answers = {
        "unknown path": alice_api.get("/api/v1/no-such-endpoint"),
        "memory": alice_api.get(f"/api/v1/memories/{memory.pk}"),
        "memory patch": alice_api.patch(f"/api/v1/memories/{memory.pk}", {"pinned": True}, format="json"),
        "memory delete": alice_api.delete(f"/api/v1/memories/{memory.pk}"),
        "memory restore": alice_api.post(f"/api/v1/memories/{memory.pk}/restore"),
        "forget_memory": alice_api.post("/api/v1/forget_memory", {**scope, "memory_id": memory.pk}, format="json"),
        "entity": alice_api.get(f"/api/v1/entities/{sarah.public_id}", scope),
        "entity graph": alice_api.get(f"/api/v1/entities/{sarah.public_id}/graph", scope),
        "entity alias": alice_api.post(f"/api/v1/entities/{sarah.public_id}/aliases", {**scope, "alias": "S"},
                                       format="json"),
        "merge": alice_api.post("/api/v1/entities/merge", {**scope, "winner": mine.public_id,
                                                           "loser": sarah.public_id}, format="json"),
        "relations of": alice_api.get("/api/v1/relations", {**scope, "entity": sarah.public_id}),
        "relation create": alice_api.post("/api/v1/relations", {**scope, "subject": mine.public_id, "predicate":
                                                                "knows", "object": sarah.public_id}, format="json"),
        "relation": alice_api.get(f"/api/v1/relations/{relation.pk}", scope),
        "relation delete": alice_api.delete(f"/api/v1/relations/{relation.pk}?user_id=alice"),
        "delete entity": alice_api.post("/api/v1/delete", {"scope": scope, "filter": {
            "entity_refs": [sarah.public_id], "hard": True}, "dry_run": True}, format="json"),
        "delete memory": alice_api.post("/api/v1/delete", {"scope": scope, "filter": {
            "memory_ids": [memory.pk], "hard": True}, "dry_run": True}, format="json"),
    }
    codes = {name: (response.status_code, response.json()["error"]) for name, response in answers.items()}
    assert codes == {name: (404, "not_found") for name in answers}
