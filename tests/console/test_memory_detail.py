"""A memory's page: Approve and Edit besides Pin and Forget, its history, its source messages and dates in words."""
import re
from datetime import datetime, timezone

from audit.models import AuditEvent
from memories.models import Memory
from memories.services import history_record
from tests import factories


def test_a_waiting_memory_can_be_approved_from_its_page(alice_client, review_item):
    page = alice_client.get(f"/memories/{review_item.pk}/").content.decode()
    assert f'action="/review/memory/{review_item.pk}/approve/"' in page
    assert "Why it waits for review:" in page and "auto memory: the assistant proposed it" in page
    response = alice_client.post(f"/review/memory/{review_item.pk}/approve/",
                                 {"next": f"/memories/{review_item.pk}/"}, follow=True)
    assert response.redirect_chain[-1][0] == f"/memories/{review_item.pk}/"
    page = response.content.decode()
    assert "Approved." in page and "Why it waits" not in page
    assert f'action="/review/memory/{review_item.pk}/approve/"' not in page  # nothing left to approve
    assert AuditEvent.objects.get(action="memory_approve").target_ids == {"memory_ids": [review_item.pk]}
    assert "Approved" in page  # the history row, in words


def test_edit_from_the_memory_page_returns_to_it(alice_client):
    memory = factories.memory("alice", "lives in Berlin", type="fact")
    page = alice_client.get(f"/memories/{memory.pk}/").content.decode()
    edit = re.search(r'href="(/review/memory/\d+/edit/\?next=[^"]+)"', page).group(1)
    form = alice_client.get(edit.replace("&amp;", "&")).content.decode()
    assert f'name="next" value="/memories/{memory.pk}/"' in form
    assert "Save and approve" not in form  # it waits for nobody
    response = alice_client.post(f"/review/memory/{memory.pk}/edit/", {
        "content": "lives in Hamburg", "type": "fact", "domain": "personal", "confidence": "0.9",
        "importance": "0.5", "next": f"/memories/{memory.pk}/", "save": "1"}, follow=True)
    assert response.redirect_chain[-1][0] == f"/memories/{memory.pk}/"
    assert Memory.objects.get(pk=memory.pk).content == "lives in Hamburg"
    assert AuditEvent.objects.filter(action="memory_update").exists()


def test_an_edit_never_returns_to_another_site(alice_client):
    memory = factories.memory("alice", "lives in Berlin", type="fact")
    response = alice_client.post(f"/review/memory/{memory.pk}/edit/", {
        "content": "lives in Hamburg", "type": "fact", "domain": "personal", "confidence": "0.9",
        "importance": "0.5", "next": "https://evil.example/"})
    assert response.status_code == 302 and response["Location"] == "/review/"


def test_history_source_messages_and_dates_are_shown_in_words(alice_client):
    this_year = datetime.now(timezone.utc).year
    at = datetime(this_year, 12, 4, 15, 0, tzinfo=timezone.utc)
    memory = factories.memory("alice", "dentist on Friday at 3pm", type="event", session_id="run-7",
                              valid_from=at, details={"when": "Friday"}, source_message_ids=["m1", "m2"])
    history_record(memory, "reinforced", session_id="run-8")
    page = alice_client.get(f"/memories/{memory.pk}/").content.decode()
    assert f"{at:%a} 4 Dec, 15:00" in page and "(“Friday”)" in page
    assert "<code>m1</code>, <code>m2</code>" in page and "Source messages" in page
    assert "Created" in page and "Reinforced" in page and "run-8" in page
    assert "Approve</button>" not in page and ">Edit</a>" in page and ">Pin</button>" in page and "Forget…" in page


def test_another_users_memory_cannot_be_edited_or_approved(alice_client, bob_secret):
    assert alice_client.get(f"/review/memory/{bob_secret.pk}/edit/?next=/").status_code == 404
    assert alice_client.post(f"/review/memory/{bob_secret.pk}/approve/", {"next": "/"}).status_code == 404
    assert Memory.objects.get(pk=bob_secret.pk).needs_review
