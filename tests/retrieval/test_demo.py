"""The demo data set answers the seed's queries end to end (what `make run` shows)."""
from console.demo import load_demo_data
from entities.merge import merge_suggestions
from memories.models import Memory
from memories.review.selectors import memories_needing_review, with_review_reasons


def test_demo_user_gets_the_seed_answers(staff_api, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        load_demo_data()
    result = staff_api.post("/api/v1/search", {
        "query": "what does Sarah think about the apartment move", "scope": {"user_id": "default"},
        "hints": {"entities": ["sarah"], "hop": 2}, "types": ["event", "fact", "preference"], "limit": 20,
    }, format="json").json()
    move = next(hit for hit in result["results"] if "apartment move" in hit["content"])
    assert move["explanation"]["hop_path"] == "sarah chen -partner_of-> alex"
    health = staff_api.post("/api/v1/search", {"query": "am I allergic to anything?"}, format="json").json()
    assert [hit["content"] for hit in health["results"]] == ["Allergic to penicillin"]
    digest = staff_api.get("/api/v1/hydrate", {"user_id": "default"}).json()
    assert [m["content"] for m in digest["memories"]] == ["Prefers concise answers", "Prefers morning meetings"]


def test_demo_gives_the_merge_page_and_the_review_queue_something_to_try(db):
    load_demo_data()
    pairs = {frozenset((s.left.canonical_name, s.right.canonical_name)) for s in merge_suggestions("default")}
    assert frozenset(("Priya Patel", "Priya P.")) in pairs
    cello = Memory.objects.get(user_id="default", content="Tom is learning to play the cello")
    assert cello.needs_review and cello.review_reason == "ambiguous_entity"
    waiting = with_review_reasons("default", list(memories_needing_review("default")))
    ambiguity = next(memory.ambiguity for memory in waiting if memory.pk == cello.pk)
    assert set(ambiguity.names) == {"Tom Becker", "Tom Nguyen"}
