"""Memory browser search: the retrieval service's hits, each with its explanation; restore of expired memories."""
from django.utils import timezone

from audit.models import AuditEvent
from memories.models import Memory
from tests import factories


def test_search_shows_hits_with_explanations(alice_client, bob, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        sarah = factories.person("alice", "Sarah Chen")
        factories.memory("alice", "Lunch with Sarah on Thursday", type="event", domain="scheduling", entities=[sarah])
        factories.memory("alice", "Prefers window seats on trains", domain="personal")
        factories.memory("bob", "Lunch with Sarah's rival on Friday", type="event", domain="scheduling")
    page = alice_client.post("/memories/", {"q": "lunch with Sarah"}).content.decode()
    assert "result" in page and "Lunch with Sarah on Thursday" in page
    assert 'class="hit-explanation"' in page and "lexical" in page
    assert "rival" not in page
    narrowed = alice_client.post("/memories/", {"q": "lunch with Sarah", "type": "preference"}).content.decode()
    assert "Lunch with Sarah on Thursday" not in narrowed and "Nothing matches." in narrowed


def test_the_search_form_posts_its_query_and_a_query_in_the_url_is_ignored(alice_client):
    factories.memory("alice", "Lunch with Sarah on Thursday", type="event", domain="scheduling")
    factories.memory("alice", "Prefers window seats on trains", domain="personal")
    form = alice_client.get("/memories/").content.decode()
    assert 'method="post" action="/memories/" role="search"' in form and "csrfmiddlewaretoken" in form
    page = alice_client.get("/memories/", {"q": "lunch with Sarah"}).content.decode()
    assert "result" not in page and "window seats" in page  # the plain list, not a search


def test_restore_an_expired_memory(alice_client):
    memory = factories.memory("alice", "owned a blue bike", type="fact")
    Memory.objects.filter(pk=memory.pk).update(status="expired", expired_at=timezone.now())
    page = alice_client.get(f"/memories/{memory.pk}/").content.decode()
    assert "Restore" in page and "kept for 30 days" in page
    response = alice_client.post(f"/memories/{memory.pk}/restore/", follow=True)
    assert "Restored" in response.content.decode()
    memory.refresh_from_db()
    assert memory.status == "active" and memory.expired_at is None
    assert AuditEvent.objects.get().action == "memory_restore"


def test_restoring_an_active_memory_is_refused(alice_client, review_item):
    response = alice_client.post(f"/memories/{review_item.pk}/restore/", follow=True)
    assert "Only expired memories can be restored." in response.content.decode()
    assert not AuditEvent.objects.exists()


def test_restore_of_another_users_memory_is_404(alice_client, bob):
    memory = factories.memory("bob", "bob's expired note")
    Memory.objects.filter(pk=memory.pk).update(status="expired", expired_at=timezone.now())
    assert alice_client.post(f"/memories/{memory.pk}/restore/").status_code == 404
    assert Memory.objects.get(pk=memory.pk).status == "expired"


def test_hits_say_why_they_matched_in_words_with_the_arithmetic_behind_details(alice_client):
    sarah, alex = factories.person("alice", "Sarah Chen"), factories.person("alice", "Alex")
    factories.relation(alex, "partner_of", sarah)
    factories.memory("alice", "Lunch with Sarah on Thursday", type="event", domain="scheduling", entities=[sarah])
    factories.memory("alice", "Alex is planning a trip to Lisbon", type="event", domain="personal", entities=[alex])
    page = alice_client.post("/memories/", {"q": "lunch with Sarah Chen"}).content.decode()
    assert "shares words with the question" in page
    assert "via sarah chen → partner of → alex" in page
    details = page.index('<details class="hit-details">')
    assert page.index('class="hit-explanation"') > details and page.index("→ score") > details


def test_sensitive_memories_surface_only_when_the_gate_allows(alice_client, recall_config):
    recall_config({"memory_semantic": {"enabled": False}})  # keywords alone classify the question
    factories.memory("alice", "allergic to penicillin", type="fact", domain="health", sensitive=True, confidence=0.9)
    factories.memory("alice", "penicillin makes me anxious", domain="health", sensitive=True, confidence=0.6)
    factories.memory("alice", "bought penicillin-free soap", domain="personal")

    def shown(**data):
        page = alice_client.post("/memories/", {"q": "penicillin", **data}).content.decode()
        return {text for text in ("allergic to penicillin", "makes me anxious", "penicillin-free soap")
                if text in page}

    # A question that reads as personal does not reach health memories, as in the API.
    assert shown() == {"penicillin-free soap"}
    assert "Read as a personal question" in alice_client.post("/memories/", {"q": "penicillin"}).content.decode()
    # Asked for, every domain is read; a sensitive memory below 0.80 confidence still never surfaces.
    assert shown(all_domains="on") == {"allergic to penicillin", "penicillin-free soap"}
    assert shown(domain="health") == {"allergic to penicillin"}
    assert "allergic to penicillin" in alice_client.post(
        "/memories/", {"q": "penicillin allergy"}).content.decode()  # a health question reads health
