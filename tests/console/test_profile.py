"""Profile page: view and edit name, preferences, favorites, assistant name."""
from audit.models import AuditEvent
from memories.models import UserProfile
from memories.services import profile_update


def test_profile_shows_lazily_created_defaults(alice_client):
    page = alice_client.get("/profile/").content.decode()
    assert 'value="Theo"' in page
    assert UserProfile.objects.filter(user_id="alice").exists()


def test_profile_save(alice_client):
    response = alice_client.post("/profile/", {"name": "Alice", "assistant_name": "Ada",
                                               "preferences": '{"answers": "concise"}',
                                               "favorites": '{"coffee": "flat white"}'}, follow=True)
    assert "Profile saved." in response.content.decode()
    profile = UserProfile.objects.get(user_id="alice")
    assert (profile.name, profile.assistant_name) == ("Alice", "Ada")
    assert profile.preferences == {"answers": "concise"} and profile.favorites == {"coffee": "flat white"}
    assert AuditEvent.objects.filter(action="update_user_profile", user_id="alice", actor="alice").count() == 1


def test_invalid_json_is_a_form_error_and_nothing_is_saved(alice_client):
    profile_update(user_id="alice", actor="alice", name="Alice")
    response = alice_client.post("/profile/", {"name": "Mallory", "assistant_name": "Theo",
                                               "preferences": "{not json", "favorites": '["tea"]'})
    page = response.content.decode()
    assert response.status_code == 400
    assert "This is not valid JSON" in page and "Enter a JSON object" in page
    assert "nothing was saved" in page
    assert UserProfile.objects.get(user_id="alice").name == "Alice"


def test_json_the_database_cannot_store_is_a_form_error(alice_client):
    for favorites, message in (('{"coffee": "flat\\u0000white"}', "Null characters are not allowed."),
                               ('{"seat": "\\ud800"}', "Surrogate characters are not allowed."),
                               ('{"a": {"b": {"c": {"d": {"e": {}}}}}}', "nested at most 5 levels")):
        response = alice_client.post("/profile/", {"assistant_name": "Theo", "favorites": favorites})
        assert response.status_code == 400 and message in response.content.decode(), favorites
    assert UserProfile.objects.get(user_id="alice").favorites == {}


def test_assistant_name_is_required(alice_client):
    response = alice_client.post("/profile/", {"name": "A", "assistant_name": ""})
    assert response.status_code == 400 and "This field is required." in response.content.decode()


def test_profile_is_per_user(alice_client, bob):
    profile_update(user_id="bob", actor="bob", name="Bob Secret")
    assert "Bob Secret" not in alice_client.get("/profile/").content.decode()
    alice_client.post("/profile/", {"name": "Alice", "assistant_name": "Theo"})
    assert UserProfile.objects.get(user_id="bob").name == "Bob Secret"
