"""A database outage is a 503 with Retry-After on every endpoint that needs the database, never a 500;
/api/v1/health, which touches no database, still answers (the process lives), /api/v1/ready says 503."""
import socket

import pytest
from django.db import connection
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient


@pytest.fixture
def database_down(alice_api, alice_client):
    """Point the connection at a closed local port, as if the server were down; restore it afterwards."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    saved = dict(connection.settings_dict)
    connection.close()
    connection.close_pool()  # the pool's connections are to the live server
    connection.settings_dict.update(HOST="127.0.0.1", PORT=str(port))

    def bring_back():
        connection.close()
        connection.close_pool()
        connection.settings_dict.update(saved)

    yield bring_back
    bring_back()


@pytest.mark.django_db(transaction=True)
def test_every_endpoint_answers_503_with_retry_after(alice_api, alice_client, database_down):
    anonymous = APIClient()
    ready = anonymous.get("/api/v1/ready")  # its own report, saying what is down
    assert (ready.status_code, ready["Retry-After"], ready.json()["ready"]) == (503, "5", False)
    assert anonymous.get("/api/v1/health").json() == {"status": "ok"}
    answers = [
        alice_api.get("/api/v1/memories", {"user_id": "alice"}),
        alice_api.post("/api/v1/remember_memory", {"user_id": "alice", "content": "Prefers tea"}, format="json"),
    ]
    for response in answers:
        assert (response.status_code, response["Content-Type"]) == (503, "application/json"), response.content
        assert response["Retry-After"] == "5"
        assert response.json() == {"error": "database_unavailable",
                                   "message": "The database is unavailable; try again in 5 seconds."}
    page = alice_client.get("/memories/")
    assert page.status_code == 503 and page["Retry-After"] == "5"


def _operations():
    """Every operation of the API schema, its path parameters filled in."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    samples = {"{public_id}": "ent_000000000000", "{memory_id}": "1", "{relation_id}": "1",
               "{job_id}": "ing_0000000000000000"}
    for path, item in schema["paths"].items():
        for name, value in samples.items():
            path = path.replace(name, value)
        for method in ("get", "post", "patch", "delete"):
            if method in item:
                yield method, path


@pytest.mark.django_db(transaction=True)
def test_every_operation_in_the_schema_is_a_503_while_the_database_is_down(alice_api, database_down):
    answers = {(method, path): getattr(alice_api, method)(path, {"user_id": "alice"}, format="json")
               for method, path in _operations()}
    assert len(answers) >= 30
    assert {key: r.status_code for key, r in answers.items() if r.status_code != 503} == {}
    assert all(r["Retry-After"] == "5" and r["Content-Type"] == "application/json" for r in answers.values())


@pytest.mark.django_db(transaction=True)
def test_retry_after_is_configured_and_the_service_recovers(alice_api, database_down, recall_config):
    recall_config({"security": {"database_retry_after_seconds": 30}})
    assert alice_api.get("/api/v1/memories", {"user_id": "alice"})["Retry-After"] == "30"
    database_down()  # the server is back: the next request reconnects
    assert alice_api.get("/api/v1/memories", {"user_id": "alice"}).status_code == 200


@pytest.mark.django_db(transaction=True)
def test_mcp_answers_503_json_while_the_database_is_down_and_413_json_for_a_huge_body(alice_api, database_down):
    from tests.assistants.test_http import run, serving

    token = alice_api._credentials["HTTP_AUTHORIZATION"].split()[-1]  # made before the database went down

    async def scenario():
        async with serving() as http:
            body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
            response = await http.post("/mcp", json=body, headers={"Authorization": f"Token {token}"})
            assert (response.status_code, response.headers["Retry-After"]) == (503, "5"), response.text
            assert response.json()["error"] == "database_unavailable"
            huge = await http.post("/mcp", content=b"x" * 3_000_000, headers={
                "Authorization": f"Token {token}", "Content-Type": "application/json"})
            assert huge.status_code == 413 and huge.json()["error"] == "request_too_large"

    run(scenario)
