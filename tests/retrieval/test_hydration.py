"""GET /api/v1/hydrate (startup digest) and POST /api/v1/turn (per-turn retrieval)."""
from datetime import timedelta

from memories.models import Scope, Status, TurnInjection
from memories.services import profile_update
from tests import factories


def hydrate(api, user_id="alice"):
    response = api.get("/api/v1/hydrate", {"user_id": user_id})
    assert response.status_code == 200, response.json()
    return response.json()


def turn(api, message, session_id="run-1", user_id="alice"):
    response = api.post("/api/v1/turn", {"user_id": user_id, "session_id": session_id, "message": message},
                        format="json")
    assert response.status_code == 200, response.json()
    return response.json()


def test_digest_holds_pinned_reviewed_global_memories_and_the_profile(alice_api, remember):
    profile_update(user_id="alice", actor="test", name="Alice", favorites={"drink": "flat white"})
    concise = remember("Prefers concise answers", type="preference", pinned=True, importance=0.9)
    sarah = factories.person("alice", "Sarah Chen")
    name = remember("Sarah says her name is pronounced AH-lis", pinned=True, importance=0.8,
                    entities=[(sarah, "mention")])
    remember("Auto-pinned guess about her diet", pinned=True, needs_review=True)
    remember("Session notes pinned for run 7", pinned=True, scope=Scope.SESSION_LOCAL, session_id="run-7")
    remember("Old pinned employer", pinned=True, status=Status.SUPERSEDED)
    remember("Likes jazz", type="preference")
    remember("Bob's pinned secret", user_id="bob", pinned=True)
    digest = hydrate(alice_api)
    assert [m["id"] for m in digest["memories"]] == [concise.pk, name.pk]
    assert [m["entities"] for m in digest["memories"]] == [
        [], [{"id": sarah.public_id, "name": "Sarah Chen", "kind": "person"}]]
    assert digest["profile"]["name"] == "Alice" and digest["profile"]["assistant_name"] == "Theo"
    assert digest["text"].splitlines() == [
        "Assistant name: Theo.", "User's name: Alice.", "Favorites: drink: flat white.", "Pinned memories:",
        "- [preference] Prefers concise answers", "- [fact] Sarah says her name is pronounced AH-lis",
    ]


def test_digest_obeys_item_and_character_caps(alice_api, remember, recall_config):
    for n in range(5):
        remember(f"Pinned fact number {n} " + "x" * 40, pinned=True, importance=0.5 + n / 10)
    recall_config({"memory_hydration": {"startup_digest_max_items": 3}})
    assert len(hydrate(alice_api)["memories"]) == 3
    # The whole text counts: "Assistant name: Theo." (21), "Pinned memories:" (17) and two 70-character
    # memory lines, with their line breaks, make 180.
    recall_config({"memory_hydration": {"startup_digest_max_items": 8, "startup_digest_max_chars": 200}})
    digest = hydrate(alice_api)
    assert len(digest["memories"]) == 2 and len(digest["text"]) == 180


def test_the_profile_counts_toward_the_digest_character_cap(alice_api, remember, recall_config):
    remember("Pinned fact number one " + "x" * 40, pinned=True)
    profile_update(user_id="alice", actor="test", name="Alice", favorites={"drink": "flat white", "book": "y" * 300})
    recall_config({"memory_hydration": {"startup_digest_max_chars": 120}})
    digest = hydrate(alice_api)
    # The favourites that fit stay; the pinned memory no longer fits beside them.
    assert digest["text"].splitlines() == ["Assistant name: Theo.", "User's name: Alice.", "Favorites: drink: flat white."]
    assert digest["memories"] == [] and digest["profile"]["favorites"]["book"] == "y" * 300


def test_digest_for_another_user_is_refused(alice_api, bob_api, remember):
    remember("Bob's pinned secret", user_id="bob", pinned=True)
    response = alice_api.get("/api/v1/hydrate", {"user_id": "bob"})
    assert response.status_code == 403 and response.json()["error"] == "permission_denied"
    assert [m["content"] for m in hydrate(bob_api, "bob")["memories"]] == ["Bob's pinned secret"]


def test_short_or_noisy_turns_are_skipped(alice_api, seed_world):
    for message in ("ok", "thanks!", "Thank you.", "ha that's funny", "sounds good", "   hi   "):
        assert turn(alice_api, message) == {"memories": [], "text": "", "skip_reason": "short_input", "domain": ""}
    assert not TurnInjection.objects.exists()


def test_turn_injects_relevant_memories_then_cools_down(alice_api, seed_world):
    first = turn(alice_api, "am I allergic to any medication?")
    assert [m["id"] for m in first["memories"]] == [seed_world["allergy"].pk]
    assert first["text"] == "Relevant memories:\n- [fact] Allergic to penicillin"
    assert first["skip_reason"] == "" and first["domain"] == "health"
    assert turn(alice_api, "how do I structure this proposal?")["skip_reason"] == "cooldown"
    other_session = turn(alice_api, "how do I structure this proposal?", session_id="run-2")
    assert [m["id"] for m in other_session["memories"]] == [seed_world["template"].pk]
    assert TurnInjection.objects.filter(user_id="alice").count() == 2


def test_turn_never_reinjects_what_it_just_injected(alice_api, seed_world, recall_config):
    recall_config({"memory_retrieval": {"turn_cooldown_seconds": 0}})
    assert turn(alice_api, "am I allergic to any medication?")["memories"]
    again = turn(alice_api, "remind me, am I allergic to penicillin?")
    assert again["memories"] == [] and again["skip_reason"] == "already_injected"
    TurnInjection.objects.update(injected_at=TurnInjection.objects.get().injected_at - timedelta(hours=1))
    assert turn(alice_api, "remind me, am I allergic to penicillin?")["memories"]


def test_turn_for_another_user_is_refused_and_writes_nothing(alice_api, seed_world):
    response = alice_api.post("/api/v1/turn", {"user_id": "bob", "session_id": "s", "message": "am I allergic?"},
                              format="json")
    assert response.status_code == 403 and response.json()["error"] == "permission_denied"
    assert not TurnInjection.objects.exists()


def test_turn_bad_input_is_a_json_400(alice_api, db):
    response = alice_api.post("/api/v1/turn", {"user_id": "alice", "message": "what is on today?"}, format="json")
    assert response.status_code == 400 and "session_id" in response.json()["fields"]
    assert not TurnInjection.objects.exists()


def test_per_turn_retrieval_weighs_freshness_by_its_own_key(alice_api, recall_config, remember):
    pasteis = remember("Loved the pasteis de nata in Lisbon", type="event", age_days=90)
    fresh = [remember(text, type="event").pk for text in (
        "Likes flat white coffee with oat milk", "Tom is moving to Hamburg in the autumn")]
    first = turn(alice_api, "what did I enjoy eating in Lisbon?", session_id="run-a")["memories"]
    assert first[0]["id"] == pasteis.pk  # relevance first, even proactively
    recall_config({"memory_retrieval": {"turn_freshness_weight": 1.0}})  # relevance × freshness × importance
    last = turn(alice_api, "what did I enjoy eating in Lisbon?", session_id="run-b")["memories"]
    assert last[-1]["id"] == pasteis.pk and {hit["id"] for hit in last[:-1]} <= set(fresh)
