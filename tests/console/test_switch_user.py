"""Staff user-id switcher: acts for another user id, audited as console_switch_user."""
from access.grants import ACTING_USER_SESSION_KEY
from audit.models import AuditEvent
from tests import factories


def test_staff_switch_is_audited_and_changes_the_pages(staff_client, bob_secret):
    assert "surprise party" not in staff_client.get("/memories/").content.decode()  # staff default: "default"
    response = staff_client.post("/switch-user/", {"user_id": "bob", "next": "/memories/"}, follow=True)
    assert response.redirect_chain[-1][0] == "/memories/"
    assert "surprise party" in response.content.decode() and "Now acting for user id" in response.content.decode()
    event = AuditEvent.objects.get(action="console_switch_user")
    assert (event.actor, event.user_id) == ("charlie", "bob")
    assert event.target_ids == {"from_user_id": "default", "to_user_id": "bob"}


def test_switcher_lists_known_user_ids_for_staff(staff_client, bob_secret):
    page = staff_client.get("/").content.decode()
    assert 'id="acting-user-id"' in page and '<option value="bob">' in page


def test_plain_user_cannot_switch_to_someone_else(alice_client, bob_secret):
    response = alice_client.post("/switch-user/", {"user_id": "bob"}, follow=True)
    assert "may not act for user id" in response.content.decode()
    assert ACTING_USER_SESSION_KEY not in alice_client.session
    assert "surprise party" not in alice_client.get("/memories/").content.decode()
    assert not AuditEvent.objects.exists()


def test_user_with_two_grants_may_switch_between_them(alice_client, alice):
    from access.models import UserIdGrant
    UserIdGrant.objects.create(account=alice, user_id="alice-work")
    factories.memory("alice-work", "quarterly planning on Friday", type="event")
    assert 'id="acting-user-id"' in alice_client.get("/").content.decode()
    alice_client.post("/switch-user/", {"user_id": "alice-work"})
    assert "quarterly planning" in alice_client.get("/memories/").content.decode()


def test_invalid_user_id_is_refused(staff_client):
    response = staff_client.post("/switch-user/", {"user_id": "bad id with spaces"}, follow=True)
    assert "letters, digits" in response.content.decode()
    assert not AuditEvent.objects.exists()


def test_switch_requires_login_and_post(client, staff_client):
    assert client.post("/switch-user/", {"user_id": "bob"}).status_code == 302
    assert staff_client.get("/switch-user/").status_code == 405
