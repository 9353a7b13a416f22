"""Contacts import through the API and manage.py, and the unresolved-reference rate it buys."""
import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command

from entities.models import Entity
from entities.resolver import resolve_mention
from tests import factories

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "contacts"


def upload(name):
    path = FIXTURES / name
    return SimpleUploadedFile(path.name, path.read_bytes(), content_type="text/vcard")


def test_api_import_returns_the_summary(alice_api):
    response = alice_api.post("/api/v1/contacts/import",
                              {"user_id": "alice", "file": upload("people.vcf"), "self_card": "Mark Jensen"},
                              format="multipart")
    assert response.status_code == 201
    body = response.json()
    assert (body["cards"], body["self_card_used"], body["duplicate_cards"]) == (12, True, 2)
    assert body["skipped_fields"]["phone"] == 8
    assert resolve_mention("alice", "Sally").entity.canonical_name == "Sarah Chen"


def test_api_import_errors_are_json_and_write_nothing(alice_api):
    malformed = alice_api.post("/api/v1/contacts/import", {"user_id": "alice", "file": upload("malformed.vcf")},
                               format="multipart")
    assert malformed.status_code == 400
    assert malformed.json()["message"].startswith("file: Line 16 in card 3 ('Card Broken')")
    assert "Nothing was imported" in malformed.json()["message"]
    missing = alice_api.post("/api/v1/contacts/import", {"user_id": "alice"}, format="multipart")
    assert missing.status_code == 400 and "file" in missing.json()["fields"]
    unknown_self = alice_api.post("/api/v1/contacts/import", {"user_id": "alice", "file": upload("people.vcf"),
                                                              "self_card": "Nobody"}, format="multipart")
    assert unknown_self.status_code == 400
    assert not Entity.objects.exists()


def test_api_import_refuses_a_file_over_the_limit(alice_api, recall_config):
    recall_config({"contacts": {"max_upload_bytes": 100}})
    response = alice_api.post("/api/v1/contacts/import", {"user_id": "alice", "file": upload("people.vcf")},
                              format="multipart")
    assert response.status_code == 400 and "max_upload_bytes" in response.json()["message"]


def test_api_import_for_another_user_is_refused(bob_api):
    response = bob_api.post("/api/v1/contacts/import", {"user_id": "alice", "file": upload("people.vcf")},
                            format="multipart")
    assert response.status_code == 403
    assert not Entity.objects.exists()


def test_management_command_imports_with_a_summary(db):
    out = StringIO()
    call_command("import_contacts", str(FIXTURES / "google.csv"), user_id="alice", stdout=out, stderr=StringIO())
    assert "people_created: 8" in out.getvalue()
    assert resolve_mention("alice", "Bob").entity.canonical_name == "Robert Smith"


def test_management_command_reports_a_malformed_file(db):
    with pytest.raises(CommandError, match=r"malformed.vcf: Line 16 in card 3"):
        call_command("import_contacts", str(FIXTURES / "malformed.vcf"), user_id="alice", stderr=StringIO())
    assert not Entity.objects.exists()


def unresolved_rate(user_id, mentions) -> float:
    unresolved = [m for m in mentions if resolve_mention(user_id, m).entity is None]
    return len(unresolved) / len(mentions)


def test_importing_contacts_lowers_the_unresolved_reference_rate(db, capsys):
    conversation = json.loads((FIXTURES / "conversation.json").read_text())
    for name in conversation["known_before_import"]:
        factories.person(name=name)
    mentions = [person for message in conversation["messages"] for person in message["people"]]
    before = unresolved_rate("alice", mentions)
    call_command("import_contacts", str(FIXTURES / "contacts_200.vcf"), user_id="alice",
                 self_card=conversation["self_card"], stdout=StringIO(), stderr=StringIO())
    after = unresolved_rate("alice", mentions)
    with capsys.disabled():
        print(f"\nunresolved-reference rate on {len(mentions)} mentions: before {before:.1%}, after {after:.1%}")
    assert (len(mentions), round(before, 3), round(after, 3)) == (17, 0.882, 0.118)
