"""POST /api/v1/contacts/import with no body, or a CSV field over Python's csv limit: a JSON 400, nothing written."""
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.site.test_bad_input import assert_bad_input, nothing_written  # noqa: F401  (fixture)


def test_an_import_with_no_body_at_all_is_a_400(alice_api, nothing_written):
    assert_bad_input(alice_api.post("/api/v1/contacts/import"), field="file")
    assert_bad_input(alice_api.post("/api/v1/contacts/import", data=b"", content_type="multipart/form-data; boundary=x"))


def test_a_csv_field_over_the_csv_field_limit_is_a_400(alice_api, nothing_written):
    text = 'Name,Nickname\r\nAnn Berg,"' + "x" * 140_000 + '"\r\n'
    upload = SimpleUploadedFile("people.csv", text.encode(), content_type="text/csv")
    response = alice_api.post("/api/v1/contacts/import", {"user_id": "alice", "file": upload}, format="multipart")
    assert_bad_input(response, field="file")
    assert "Line 2" in response.json()["message"] and "xxx" not in response.json()["message"]
