"""What the assistant said: kept where it recommends, plans or computes, never as a fact about the user."""
import pytest
from django.test import TestCase

from ingest.pipeline.assistant_turns import assistant_relevance
from memories.models import Memory
from memories.review.services import memory_approve
from memories.services import memory_pin
from recall_site.config import recall_setting

URL = "/api/v1/ingest"
RECOMMENDATION = ("For auth I'd recommend Authlib: it handles OAuth2 and OpenID Connect, and its Flask "
                  "integration is well kept. You could start with the authorization-code flow.")
PLAN = ("Here's a plan for sprint 1:\n\n1. Set up the repo and CI.\n2. Build the login page.\n"
        "3. Ship the weather widget calling the OpenWeather API.\n\nLet me know if you want changes!")


pytestmark = pytest.mark.usefixtures("canary_bypassed")  # searches read vectors, as in production


def ingest(api, *turns, session_id="chat-1"):
    """turns: (role, content) pairs, ids m0, m1, …; the memories written are embedded, as the worker would."""
    messages = [{"role": role, "content": content, "timestamp": f"2026-11-30T10:00:{i:02d}Z", "id": f"m{i}"}
                for i, (role, content) in enumerate(turns)]
    with TestCase.captureOnCommitCallbacks(execute=True):
        response = api.post(URL, {"user_id": "alice", "session_id": session_id, "source": "import",
                                  "messages": messages}, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def search(api, query):
    response = api.post("/api/v1/search", {"query": query, "scope": {"user_id": "alice"},
                                           "filters": {"include_all_domains": True}, "limit": 10}, format="json")
    assert response.status_code == 200, response.json()
    return response.json()["results"]


def test_a_recommendation_is_kept_as_what_the_assistant_said_and_found_again(alice_api):
    body = ingest(alice_api, ("user", "Which library should I use for auth in my Flask app?"),
                  ("assistant", RECOMMENDATION))
    assert body["messages"][1]["outcome"] in ("stored", "sent_to_review")
    said = Memory.objects.get(source_message_ids=["m1"])
    assert said.type == "event" and said.content.startswith("Assistant: For auth I'd recommend Authlib")
    assert said.details["said_by"] == "assistant" and said.details["in_reply_to"] == "m0"
    assert said.subject is None and not said.entities.exists()  # nobody's fact, no entity of the user's
    assert said.embedding is not None
    hits = search(alice_api, "which library did you recommend for auth?")
    assert hits and hits[0]["id"] == said.pk and hits[0]["source_message_ids"] == ["m1"]
    neutral = [hit["source_message_ids"] for hit in search(alice_api, "auth library for the Flask app")]
    assert neutral[:2] == [["m0"], ["m1"]]  # unless asked after the assistant's words, the user's come first


def test_a_plan_is_kept_and_its_closing_pleasantry_left_out(alice_api):
    ingest(alice_api, ("user", "Can you plan sprint 1 for my weather dashboard project?"), ("assistant", PLAN))
    said = Memory.objects.get(source_message_ids=["m1"])
    assert "3. Ship the weather widget" in said.content and "Let me know" not in said.content
    assert search(alice_api, "what plan did we settle on for sprint 1?")[0]["id"] == said.pk


def test_a_plan_said_in_words_is_kept():
    """No list, no digits: a routine in words ("three times a week") and a plan with its kind named."""
    for text in ("Here's your training plan: run three times a week and rest on Sundays.",
                 "Take the vitamin D once a day with breakfast, it absorbs better with some fat."):
        score, reason = assistant_relevance(text)
        assert score >= recall_setting("memory.relevance_threshold") and not reason, text


@pytest.mark.parametrize("text", [
    "Based on what you told me, your best option is the Kindle Paperwhite for reading at night.",
    "I'd go with PostgreSQL here because you need transactions and joins.",
    "For your knee, try low-impact cardio like swimming or cycling instead of running.",
    "Remember to bring your passport and the printed visa to the embassy.",
    "Done! I've set a reminder for your dentist appointment on Thursday at 2pm.",
    "How about a personalized garden kneeling pad, or the new Tana French novel? Both fit her interests.",
    "She'd probably love a pottery class, since she mentioned wanting to try it last spring.",
    "For online orders with concurrent writes, go with PostgreSQL. SQLite locks the whole database on writes.",
    "Add CORSMiddleware in FastAPI with allow_origins=['http://localhost:3000']. That tells the browser your API"
    " accepts requests from the frontend's origin.",
    "Good call. With PostgreSQL you can store items as JSONB and add a GIN index on it for fast lookups.",
])
def test_advice_a_choice_and_something_done_for_the_user_are_kept(text):
    score, reason = assistant_relevance(text)
    assert score >= recall_setting("memory.relevance_threshold") and not reason


def test_chit_chat_apologies_and_questions_handed_back_are_not_kept(alice_api):
    body = ingest(alice_api, ("assistant", "You're welcome! Let me know if there is anything else I can do."),
                  ("assistant", "Sorry about that, my mistake. Thanks for your patience with me today."),
                  ("assistant", "What would you like to focus on next? Do you want to talk about it more?"),
                  ("assistant", "How about you? Anything fun planned for the weekend with the family?"),
                  ("assistant", "I prefer morning meetings"))
    assert [m["outcome"] for m in body["messages"]] == ["rejected"] * 5
    assert not Memory.objects.exists()


def test_the_assistant_saying_something_of_the_user_makes_no_fact_about_the_user(alice_api):
    ingest(alice_api, ("assistant", "Since you live in Berlin and prefer tea, I'd suggest the Rosenthaler "
                                    "tea house: it opens at 8 and is 5 minutes from the U8."))
    assert not Memory.objects.filter(type__in=["fact", "preference"]).exists()
    assert Memory.objects.get().details["said_by"] == "assistant"


def test_a_long_answer_is_kept_in_passages_each_read_whole(alice_api):
    steps = "\n\n".join(f"Step {n}: run the migration for table {n}, then check its row count against the "
                        f"backup; expect about {n * 1000} rows and a run time near {n} minutes." for n in range(1, 13))
    ingest(alice_api, ("user", "How should I migrate the database?"), ("assistant", steps))
    passages = Memory.objects.filter(source_message_ids=["m1"])
    assert passages.count() == 2 and all(len(m.content) <= 820 for m in passages)  # the first two of substance


def test_what_the_assistant_said_never_enters_the_startup_digest(alice_api):
    ingest(alice_api, ("assistant", RECOMMENDATION))
    said = Memory.objects.get()
    memory_approve(memory=said, actor="test")
    memory_pin(memory=Memory.objects.get(pk=said.pk), actor="test")
    digest = alice_api.get("/api/v1/hydrate", {"user_id": "alice"}).json()
    assert "Authlib" not in str(digest)


def test_a_system_message_is_still_not_read(alice_api):
    body = ingest(alice_api, ("system", "You are a helpful assistant. The user prefers short answers."))
    assert body["messages"][0]["reason"] == "not_a_user_message" and not Memory.objects.exists()
