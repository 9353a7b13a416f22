"""The console's "Download my data" on the profile page: the export of the acting user id, as a file."""
import json

from tests import factories


def download(client):
    response = client.get("/profile/download/")
    assert response.status_code == 200, response.content
    assert response["Content-Disposition"].startswith("attachment")
    return json.loads(b"".join(response.streaming_content))


def test_profile_page_offers_the_download(alice_client):
    page = alice_client.get("/profile/").content.decode()
    assert 'href="/profile/download/"' in page and "Download my data" in page


def test_download_is_the_acting_users_export_only(alice_client, bob_client):
    factories.memory("alice", "likes green tea")
    factories.memory("bob", "bob's secret plan for the surprise party")
    alices = download(alice_client)
    assert alices["user_id"] == "alice" and [m["content"] for m in alices["memories"]] == ["likes green tea"]
    bobs = download(bob_client)
    assert bobs["user_id"] == "bob" and "green tea" not in json.dumps(bobs)


def test_download_needs_a_login(client):
    response = client.get("/profile/download/")
    assert response.status_code == 302 and "/login" in response["Location"]


def test_download_is_get_only(alice_client):
    assert alice_client.post("/profile/download/").status_code == 405
