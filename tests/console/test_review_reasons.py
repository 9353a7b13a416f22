"""Each waiting memory says why it waits in words built from what it holds, and shows its dates resolved."""
from datetime import datetime, timezone

from console.templatetags.console import when
from entities.services import ambiguity_review_record
from tests import factories


def queue(client) -> str:
    return client.get("/review/").content.decode()


def test_an_auto_pinned_item_names_its_domain_type_and_importance(alice_client):
    factories.memory("alice", "allergic to penicillin", type="fact", domain="health", sensitive=True,
                     importance=0.9, confidence=0.9, pinned=True, needs_review=True, review_reason="auto_pinned",
                     source="auto_reflection")
    assert "auto-pinned: health fact, importance 0.90" in queue(alice_client)


def test_an_ambiguous_name_says_which_people_it_could_be(alice_client, bob_client):
    chen, miller = factories.person("alice", "Sarah Chen"), factories.person("alice", "Sarah Miller")
    ambiguity_review_record(user_id="alice", candidates=[chen, miller])
    factories.memory("alice", "lunch with Sarah on Thursday", type="event", needs_review=True,
                     review_reason="ambiguous_entity", source="auto_reflection")
    assert "ambiguous: ‘Sarah’ could be Sarah Chen or Sarah Miller" in queue(alice_client)
    factories.memory("bob", "coffee with Sarah", needs_review=True, review_reason="ambiguous_entity")
    bobs = queue(bob_client)  # alice's question never explains bob's item
    assert "ambiguous: a name in it could mean more than one person" in bobs and "Sarah Chen" not in bobs


def test_an_inferred_pattern_counts_its_sessions(alice_client):
    factories.memory("alice", "prefers not to have Monday morning commitments", source="inferred",
                     confidence=0.55, needs_review=True, review_reason="inferred", domain="scheduling",
                     details={"pattern_key": "avoid:monday:morning", "inferred": True,
                              "pattern_sessions": ["s1", "s2", "s3", "s4"]})
    page = queue(alice_client)
    assert "inferred from 4 sessions (s1, s2, s3, s4)" in page
    assert "confidence 0.55 below the 0.75 that promotes a pattern on its own" in page


def test_a_confidence_below_a_bar_is_named(alice_client):
    factories.memory("alice", "feels anxious before flights", domain="health", sensitive=True, confidence=0.55,
                     needs_review=True, review_reason="auto_memory", source="auto_reflection")
    assert "confidence 0.55 below the 0.80 a sensitive memory needs to surface" in queue(alice_client)


def test_dates_are_shown_resolved_in_words(alice_client):
    this_year = datetime.now(timezone.utc).year
    at = datetime(this_year, 12, 4, 15, 0, tzinfo=timezone.utc)
    factories.memory("alice", "dentist on Friday at 3pm", type="event", valid_from=at, details={"when": "Friday"},
                     needs_review=True, review_reason="auto_memory", source="auto_reflection")
    words = f"{at:%a} 4 Dec, 15:00"
    assert words in queue(alice_client)
    assert when(datetime(2025, 12, 5, 15, 0, tzinfo=timezone.utc)) == "Fri 5 Dec 2025, 15:00"
    assert when(datetime(this_year, 3, 2, tzinfo=timezone.utc)).endswith("2 Mar")  # a date without a time
