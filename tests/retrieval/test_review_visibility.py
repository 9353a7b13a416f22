"""Review semantics: confident auto memories are searchable while they wait; doubtful ones and the digest wait."""
from ingest.pipeline.base import Candidate, IngestContext
from ingest.pipeline.policy import apply_auto_memory_policy
from search.hydration import startup_digest


def search(api, query):
    response = api.post("/api/v1/search", {"query": query, "scope": {"user_id": "alice"}}, format="json")
    assert response.status_code == 200, response.json()
    return {hit["content"]: hit for hit in response.json()["results"]}


def test_an_ingested_conversation_is_searchable_at_once_and_marked_unreviewed(alice_api):
    response = alice_api.post("/api/v1/ingest", {"user_id": "alice", "session_id": "s1", "messages": [
        {"role": "user", "content": "I'm allergic to penicillin, the doctor confirmed it."},
        {"role": "user", "content": "I just moved to Lisbon for the new job"}]}, format="json")
    assert response.json()["counts"]["sent_to_review"] == 2  # defaults: auto memories wait for confirmation
    found = search(alice_api, "am I allergic to any medication?")
    allergy = next(hit for content, hit in found.items() if content.startswith("Allergic to penicillin"))
    assert allergy["reviewed"] is False and allergy["pinned"] is True  # auto-pinned: health fact, importance 0.9
    assert allergy["source_message_ids"] and allergy["session_id"] == "s1"
    assert "Lives in Lisbon" in search(alice_api, "where do I live now")
    # ...but an auto-pinned memory stays out of the startup digest until a person approves it.
    assert [m.content for m in startup_digest("alice").memories] == []


def test_doubtful_memories_stay_out_of_search_until_reviewed(alice_api, remember):
    work = {"confidence": 0.9, "domain": "professional"}
    remember("Seemed stressed about the deadline", type="preference", needs_review=True, review_reason="inferred",
             **work)
    remember("Sarah wants to meet about the deadline", type="event", needs_review=True,
             review_reason="ambiguous_entity", **work)
    waiting = remember("The deadline for the budget is Monday", type="event", needs_review=True,
                       review_reason="auto_memory", **work)
    confirmed = remember("The deadline for the grant is Friday", type="event", **work)
    found = search(alice_api, "what about the deadline")
    assert set(found) == {confirmed.content, waiting.content}
    assert (found[waiting.content]["reviewed"], found[confirmed.content]["reviewed"]) == (False, True)


def test_auto_pinning_keeps_a_doubtful_review_reason(db):
    context = IngestContext(user_id="alice", session_id="s1", source="auto_reflection", actor="api")
    ambiguous = Candidate(type="fact", content="Sarah is allergic to nuts", confidence=0.9, importance=0.9,
                          needs_review=True, review_reason="ambiguous_entity")
    apply_auto_memory_policy(ambiguous, context)
    assert (ambiguous.pinned, ambiguous.needs_review, ambiguous.review_reason) == (True, True, "ambiguous_entity")
    plain = Candidate(type="fact", content="Allergic to nuts", confidence=0.9, importance=0.9)
    apply_auto_memory_policy(plain, context)
    assert (plain.pinned, plain.needs_review, plain.review_reason) == (True, True, "auto_pinned")
