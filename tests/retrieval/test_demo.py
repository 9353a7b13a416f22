"""The demo data set answers the seed's queries end to end (what `make run` shows)."""
from memories.demo import load_demo_data


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
