"""Audit log: filters; staff see everything, other accounts only their user ids' events."""
from datetime import timedelta

from django.utils import timezone

from audit.models import AuditEvent


def _events():
    now = timezone.now()
    AuditEvent.objects.create(actor="alice", user_id="alice", action="memory_approve", target_ids={"memory_ids": [7]})
    AuditEvent.objects.create(actor="alice", user_id="alice", action="hard_delete", counts={"memories": 3},
                              created_at=now - timedelta(days=10))
    return AuditEvent.objects.create(actor="bob", user_id="bob", action="bob_secret_action")


def test_user_sees_only_own_events(alice_client):
    bobs = _events()
    page = alice_client.get("/audit/").content.decode()
    assert "memory_approve" in page and "hard_delete" in page and "bob_secret_action" not in page
    assert alice_client.get(f"/audit/{bobs.pk}/").status_code == 404


def test_filters_by_action_and_date(alice_client):
    _events()
    page = alice_client.get("/audit/", {"action": "hard_delete"}).content.decode()
    assert "Hard delete</span>" in page and "Memory approved</span>" not in page
    since = (timezone.now() - timedelta(days=2)).date().isoformat()
    page = alice_client.get("/audit/", {"since": since}).content.decode()
    assert "Memory approved</span>" in page and "Hard delete</span>" not in page


def test_bad_filter_is_a_form_error(alice_client):
    _events()
    response = alice_client.get("/audit/", {"since": "2026-05-02", "until": "2026-05-01"})
    assert response.status_code == 400 and "The end date is before the start date." in response.content.decode()
    assert alice_client.get("/audit/", {"action": "bob_secret_action"}).status_code == 400


def test_staff_see_all_and_filter_by_user(staff_client):
    _events()
    page = staff_client.get("/audit/").content.decode()
    assert "bob_secret_action" in page and "memory_approve" in page
    page = staff_client.get("/audit/", {"user_id": "bob"}).content.decode()
    assert "bob_secret_action" in page and "Memory approved</span>" not in page


def test_event_detail(alice_client):
    _events()
    event = AuditEvent.objects.get(action="hard_delete")
    page = alice_client.get(f"/audit/{event.pk}/").content.decode()
    assert "hard_delete" in page and "<th scope=\"row\">Memories</th><td>3</td>" in page


def test_empty_log_explains_itself(alice_client):
    assert "Nothing recorded yet." in alice_client.get("/audit/").content.decode()


def test_actions_read_as_words_and_empty_targets_show_no_chip(alice_client):
    AuditEvent.objects.create(actor="alice", user_id="alice", action="hard_delete", reason="correction",
                              target_ids={"entity_refs": [], "session_ids": ["s1"]}, counts={"memories": 1})
    page = alice_client.get("/audit/").content.decode()
    assert 'title="hard_delete">Hard delete</span>' in page
    assert "Entity refs" not in page and "Session ids" in page
    event = AuditEvent.objects.get(action="hard_delete")
    detail = alice_client.get(f"/audit/{event.pk}/").content.decode()
    assert "Wrong or mistaken memory" in detail and "Entity refs" not in detail
