"""Dashboard: counts, review count, recent activity and alerts — for the acting user only."""
import re

from audit.models import AuditEvent
from console.demo import load_demo_data
from entities.models import Entity, EntityMention, UnresolvedReference
from tests import factories
from tests.conftest import make_account


def test_login_required(client):
    response = client.get("/")
    assert response.status_code == 302 and response["Location"].startswith("/login/")


def test_login_page_and_bad_password(client, alice):
    assert "Log in" in client.get("/login/").content.decode()
    response = client.post("/login/", {"username": "alice", "password": "wrong"})
    assert "didn't match" in response.content.decode()
    assert client.post("/login/", {"username": "alice", "password": "pw"}).status_code == 302


def test_dashboard_counts_and_activity(alice_client, review_item, bob_secret):
    factories.memory("alice", "lives in Berlin", type="fact")
    AuditEvent.objects.create(actor="alice", user_id="alice", action="memory_approve")
    AuditEvent.objects.create(actor="bob", user_id="bob", action="bob_only_action")
    page = alice_client.get("/").content.decode()
    assert ">2</span><span class=\"stat-label\">memories stored" in page
    assert ">1</span><span class=\"stat-label\">waiting for review" in page
    assert "lives in Berlin" in page and "memory_approve" in page
    assert "surprise party" not in page and "bob_only_action" not in page


def test_dashboard_alerts_on_unresolved_rate_and_drift(alice_client):
    sarah = factories.person("alice", "Sarah Chen")
    Entity.objects.filter(pk=sarah.pk).update(drift_flagged=True)
    for index in range(3):
        EntityMention.objects.create(user_id="alice", entity=sarah, session_id=f"s{index}")
        UnresolvedReference.objects.create(user_id="alice", session_id=f"s{index}", mention=f"somebody {index}")
    page = alice_client.get("/").content.decode()
    assert "Unresolved-reference rate" in page and "alert-alert" in page
    assert "Entity drift" in page and "1 entity changed a lot" in page


def test_empty_dashboard_explains_itself(alice_client):
    page = alice_client.get("/").content.decode()
    assert "No memories yet." in page and "No recorded actions yet." in page


def test_account_without_user_id_sees_an_explanation(client, db):
    client.force_login(make_account("nobody"))
    response = client.get("/")
    assert response.status_code == 403 and "No user id yet" in response.content.decode()
    assert client.get("/review/").status_code == 403


def test_fresh_demo_dashboard_has_distinct_tiles_and_no_warning(staff_client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        load_demo_data()
    page = staff_client.get("/").content.decode()
    labels = re.findall(r'<span class="stat-label">([^<]+)</span>', page)
    assert labels == ["memories stored", "waiting for review", "pinned", "people, places and organisations"]
    assert "alert-warn" not in page and "alert-alert" not in page
    assert "Entity drift" in page  # the demo's drift question, noted for the review queue
