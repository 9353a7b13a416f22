"""GET /api/v1/export and POST /api/v1/import: JSON Lines, the other user's id (403), malformed files (400,
nothing written) and the body cap (413)."""
import copy
import json

import pytest

from access.models import UserIdGrant
from audit.models import AuditEvent
from entities.models import Entity
from tests.portability.conftest import memory_count, read_export


@pytest.fixture
def document(alice_api, alice_world) -> dict:
    return read_export(alice_api.get("/api/v1/export", {"user_id": "alice"}))


def import_into(api, user_id, body):
    return api.post(f"/api/v1/import?user_id={user_id}", body, format="json")


def test_jsonl_has_a_header_then_a_row_a_line(alice_api, document):
    response = alice_api.get("/api/v1/export", {"user_id": "alice", "format": "jsonl"})
    assert response["Content-Type"].startswith("application/x-ndjson")
    lines = [json.loads(line) for line in b"".join(response.streaming_content).decode().splitlines()]
    assert lines[0]["record"] == "header" and lines[0]["profile"] == document["profile"]
    records = [line["record"] for line in lines[1:]]
    assert records.count("memory") == len(document["memories"])
    assert records.count("entity") == len(document["entities"])
    assert records.count("audit_event") >= 1


def test_the_format_decides_the_shape_whatever_the_accept_header(alice_api, alice_world):
    response = alice_api.get("/api/v1/export", {"user_id": "alice", "format": "jsonl"},
                             HTTP_ACCEPT="application/x-ndjson")
    assert response.status_code == 200 and response["Content-Type"].startswith("application/x-ndjson")
    response = alice_api.get("/api/v1/export", {"user_id": "bob"}, HTTP_ACCEPT="text/csv")
    assert response.status_code == 403 and response.json()["error"] == "permission_denied"


def test_an_unknown_format_is_400(alice_api, alice_world):
    response = alice_api.get("/api/v1/export", {"user_id": "alice", "format": "xml"})
    assert response.status_code == 400 and response.json()["error"] == "invalid"
    assert "format" in response.json()["fields"]


def test_another_users_id_is_403_for_export_and_import(alice_api, bob_api, document):
    response = bob_api.get("/api/v1/export", {"user_id": "alice"})
    assert response.status_code == 403
    assert response.json()["error"] == "permission_denied" and "alice" in response.json()["message"]
    response = alice_api.get("/api/v1/export", {"user_id": "bob", "format": "jsonl"})
    assert response.status_code == 403 and response["Content-Type"] == "application/json"
    response = import_into(alice_api, "bob", document)
    assert response.status_code == 403 and response.json()["error"] == "permission_denied"
    assert memory_count("bob") == 0 and not Entity.objects.filter(user_id="bob").exists()


def broken(document: dict, change) -> dict:
    document = copy.deepcopy(document)
    change(document)
    return document


MALFORMED = {
    "not an object": (lambda d: None, "non_field_errors"),
    "no format": (lambda d: d.pop("format"), "format"),
    "a later version": (lambda d: d.update(version=2), "version"),
    "a relation to nowhere": (lambda d: d["relations"][0].update(subject="ent_nobody"), "relations.0.subject"),
    "a memory linked to nowhere": (lambda d: d["memories"][0]["entities"].append({"entity": "ent_x", "role": "mention"}),
                                   "memories.0.entities"),
    "a bad memory type": (lambda d: d["memories"][-1].update(type="gossip"), "type"),
    "superseded by a memory not there": (lambda d: d["memories"][0].update(superseded_by=99999), "superseded_by"),
    "an entity id twice": (lambda d: d["entities"].append(dict(d["entities"][0], name="Other")), "entities"),
    "a nameless entity": (lambda d: d["entities"][0].update(name="!!"), "name"),
    "a NUL in a message": (lambda d: d["source_messages"][0].update(text="a\x00b"), "text"),
    "valid_to before valid_from": (lambda d: d["memories"][0].update(valid_from="2026-11-30T10:00:00Z",
                                                                     valid_to="2026-11-01T10:00:00Z"), "valid_to"),
    "superseded by itself": (lambda d: d["memories"][0].update(superseded_by=d["memories"][0]["id"]),
                             "superseded_by"),
    "a supersession cycle": (lambda d: (d["memories"][0].update(superseded_by=d["memories"][1]["id"]),
                                        d["memories"][1].update(superseded_by=d["memories"][0]["id"])),
                             "superseded_by"),
    "a relation of an entity with itself": (lambda d: d["relations"][0].update(object=d["relations"][0]["subject"]),
                                            "relations.0.object"),
    "a review of an entity with itself": (lambda d: d["entity_reviews"][0].update(
        candidate=d["entity_reviews"][0]["entity"]), "candidate"),
    "expired without expired_at": (lambda d: d["memories"][0].update(status="expired", expired_at=None),
                                   "expired_at"),
}


@pytest.mark.parametrize("case", MALFORMED)
def test_a_malformed_file_is_400_naming_the_problem_and_imports_nothing(alice_api, document, alice_copy, case):
    change, problem = MALFORMED[case]
    body = [] if case == "not an object" else broken(document, change)
    response = import_into(alice_api, alice_copy, body)
    assert response.status_code == 400, response.content
    assert response.json()["error"] == "invalid" and problem in response.json()["message"] + str(
        response.json()["fields"])
    assert memory_count(alice_copy) == 0 and not Entity.objects.filter(user_id=alice_copy).exists()
    assert not AuditEvent.objects.filter(user_id=alice_copy).exists()


def test_an_import_over_the_body_cap_is_413_and_imports_nothing(alice_api, document, alice_copy, recall_config):
    recall_config({"security": {"max_import_bytes": 1000}})
    response = import_into(alice_api, alice_copy, document)
    assert response.status_code == 413 and response.json()["error"] == "request_too_large"
    assert memory_count(alice_copy) == 0


def test_the_demo_users_export_goes_back_in_whole(alice_api, alice, alice_copy):
    from console.demo import load_demo_data

    load_demo_data()
    UserIdGrant.objects.get_or_create(account=alice, user_id="default")
    document = read_export(alice_api.get("/api/v1/export", {"user_id": "default"}))
    response = import_into(alice_api, alice_copy, document)
    assert response.status_code == 200, response.content
    assert memory_count(alice_copy) == memory_count("default") > 0
