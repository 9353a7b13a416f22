"""POST /api/v1/search: the seed's cases, gating, scoping, exclusions and caps."""
from datetime import timedelta

from django.utils import timezone

from entities.models import Entity
from memories.models import Memory, Scope, Status, TurnInjection
from tests import factories


def search(api, query, **body):
    body.setdefault("scope", {"user_id": "alice"})
    if body["scope"] is None:
        del body["scope"]
    response = api.post("/api/v1/search", {"query": query, **body}, format="json")
    assert response.status_code == 200, response.json()
    return response.json()


def contents(result):
    return [hit["content"] for hit in result["results"]]


def test_two_hops_from_sarah_reach_alexs_move_event(alice_api, seed_world):
    result = search(alice_api, "what does Sarah think about the apartment move",
                    hints={"entities": ["sarah"], "hop": 2}, types=["event", "fact", "preference"], limit=20)
    move = next(hit for hit in result["results"] if hit["id"] == seed_world["move"].pk)
    assert "Sarah" not in move["content"]
    assert "graph" in move["explanation"]["retrievers"]
    assert move["explanation"]["hop_path"] == "sarah chen -partner_of-> alex"
    assert move["entities"] == [{"id": seed_world["alex"].public_id, "name": "Alex", "kind": "person"}]
    assert {"mention": "sarah", "method": "partial", "hinted": True, "id": seed_world["sarah"].public_id,
            "name": "Sarah Chen"} in result["resolved_entities"]
    assert 0 < move["score"] <= 1 and move["freshness"] <= move["confidence"]


def test_graph_walk_stops_at_the_requested_hop(alice_api, seed_world):
    def graph_found(query, hop):
        result = search(alice_api, query, hints={"entities": ["sarah"], "hop": hop})
        return {hit["id"] for hit in result["results"] if "graph" in hit["explanation"]["retrievers"]}

    assert seed_world["berlin_bakery"].pk in graph_found("Sarah's favourite bakery", 0)
    assert seed_world["move"].pk not in graph_found("is Sarah worried about moving apartments", 0)
    assert seed_world["move"].pk in graph_found("is Sarah worried about moving apartments", 1)


def test_work_query_about_a_proposal_gets_neither_the_marriage_nor_the_allergy(alice_api, seed_world):
    result = search(alice_api, "how do I structure this proposal?")
    assert result["domain"] == "professional"
    assert result["domains"] == ["professional", "scheduling"]
    assert result["min_confidence"] == 0.6
    assert seed_world["template"].content in contents(result)
    assert seed_world["marriage"].content not in contents(result)
    assert seed_world["allergy"].content not in contents(result)


def test_a_question_about_family_reads_where_family_was_filed(alice_api, remember):
    """What the user says of their family is tagged relationship (and sensitive) at write time: a question
    with a family word, or a personal one naming one of the user's people, reads that domain too."""
    lily = factories.person("alice", "Lily")
    birthday = remember("My daughter Lily turns 7 on March 3rd", type="event", domain="relationship",
                        sensitive=True, entities=[lily])
    by_role = search(alice_api, "when is my daughter's birthday")
    assert by_role["domain"] == "relationship" and birthday.content in contents(by_role)
    by_name = search(alice_api, "when is Lily's birthday")
    assert by_name["domain"] == "personal" and "relationship" in by_name["domains"]
    assert birthday.content in contents(by_name)
    assert "relationship" not in search(alice_api, "which song did I play on the birthday")["domains"]


def test_a_health_guess_by_the_centroids_alone_also_reads_personal(alice_api, remember):
    """Health questions read health alone when their words say health; a question only the example queries'
    centroids call health is a guess, which reads the personal domain too, not health alone."""
    rex = remember("We got a dog named Rex, he's a golden retriever", type="event")
    worded = search(alice_api, "am I allergic to penicillin")
    assert (worded["domain"], worded["domains"]) == ("health", ["health"])
    guessed = search(alice_api, "what kind of dog is Rex")
    assert guessed["domain"] == "health" and set(guessed["domains"]) == {"health", "personal"}
    assert rex.content in contents(guessed)


def test_a_question_about_food_reads_the_allergy_and_a_work_question_does_not(alice_api, remember):
    """What to cook is a health matter too: an allergy told months ago reaches a recipe question."""
    allergy = remember("Allergic to shellfish", domain="health", sensitive=True, importance=0.9)
    dinner = search(alice_api, "can you suggest a dinner recipe with shrimp for tonight?")
    assert dinner["domain"] != "health" and "health" in dinner["domains"]
    assert allergy.content in contents(dinner)
    work = search(alice_api, "book the client lunch for the proposal review")
    assert "health" not in work["domains"] and allergy.content not in contents(work)
    pet = search(alice_api, "what should Rex eat")  # a health guess by the centroids alone still reads personal
    assert pet["domain"] == "health" and set(pet["domains"]) == {"health", "personal"}


def test_including_personal_stuff_opens_every_domain(alice_api, seed_world):
    result = search(alice_api, "remind me everything about the Berlin trip including personal stuff")
    assert set(result["domains"]) == {"professional", "personal", "health", "relationship", "scheduling"}
    assert seed_world["berlin_bakery"].content in contents(result)
    assert seed_world["berlin_flights"].content in contents(result)


def test_include_all_domains_filter_is_the_same_escape_hatch(alice_api, seed_world):
    narrow = search(alice_api, "what did Sarah propose")
    wide = search(alice_api, "what did Sarah propose", filters={"include_all_domains": True})
    assert seed_world["marriage"].content in contents(wide)
    assert len(wide["domains"]) == 5 and len(narrow["domains"]) < 5


def test_an_allergy_stated_two_months_ago_answers_a_health_question(alice_api, seed_world):
    result = search(alice_api, "am I allergic to any medication?")
    assert result["domain"] == "health" and result["domains"] == ["health"]
    [hit] = result["results"]
    assert hit["id"] == seed_world["allergy"].pk
    assert hit["confidence"] == 0.9
    assert 0.5 < hit["freshness"] < 0.9  # decayed over 60 days of a 90-day half-life, still above the gate


def test_sensitive_memories_below_080_confidence_never_surface(alice_api, remember):
    remember("Seems depressed about the job hunt", domain="health", sensitive=True, confidence=0.79)
    remember("Feels anxious about the job hunt", domain="personal", sensitive=True, confidence=0.5)
    sure = remember("Diagnosed with anxiety about job interviews", domain="health", sensitive=True, confidence=0.85)
    for body in ({}, {"filters": {"min_confidence": 0.0, "include_all_domains": True}},
                 {"filters": {"domains": ["health", "personal"], "min_confidence": 0.1}}):
        result = search(alice_api, "how am I feeling about the job hunt and anxiety", **body)
        assert contents(result) == [sure.content] or contents(result) == []
        assert all(hit["confidence"] >= 0.8 for hit in result["results"] if hit["sensitive"])
    assert search(alice_api, "anxiety job interviews", filters={"include_all_domains": True})["results"]


def test_other_users_memories_never_come_back(alice_api, bob_api, seed_world, remember):
    bob_allergy = remember("Allergic to penicillin and peanuts", user_id="bob", domain="health", sensitive=True)
    alice_ids = {hit["id"] for hit in search(alice_api, "allergic to penicillin peanuts")["results"]}
    assert bob_allergy.pk not in alice_ids and seed_world["allergy"].pk in alice_ids
    bob_ids = {hit["id"] for hit in search(bob_api, "allergic to penicillin", scope={"user_id": "bob"})["results"]}
    assert bob_ids == {bob_allergy.pk}
    # Bob's resolver cannot see Alice's Sarah either.
    bob_sarah = search(bob_api, "what does Sarah think", scope={"user_id": "bob"}, hints={"entities": ["sarah"]})
    assert bob_sarah["resolved_entities"][0]["id"] is None and bob_sarah["results"] == []


def test_acting_for_another_user_is_refused_with_json_403(alice_api, seed_world):
    response = alice_api.post("/api/v1/search", {"query": "allergy", "scope": {"user_id": "bob"}}, format="json")
    assert response.status_code == 403
    assert response.json()["error"] == "permission_denied"
    assert "bob" in response.json()["message"]


def test_a_top_level_user_and_session_id_scope_the_search_as_ingest_takes_them(alice_api, bob_api, remember):
    local = remember("Draft slides use the teal colour palette", domain="professional", scope=Scope.SESSION_LOCAL,
                     session_id="run-1")
    query = "which colour palette do the draft slides use"
    found = search(alice_api, query, scope=None, user_id="alice", session_id="run-1")
    assert local.pk in [hit["id"] for hit in found["results"]]
    refused = bob_api.post("/api/v1/search", {"query": query, "user_id": "alice"}, format="json")
    assert refused.status_code == 403 and "'alice'" in refused.json()["message"]
    both = alice_api.post("/api/v1/search", {"query": query, "user_id": "alice", "scope": {"user_id": "bob"}},
                          format="json")
    assert both.status_code == 400 and "user_id" in both.json()["fields"]


def test_staff_may_search_any_user(staff_api, seed_world):
    result = search(staff_api, "am I allergic to penicillin")
    assert seed_world["allergy"].pk in [hit["id"] for hit in result["results"]]


def test_bad_input_is_a_json_400(alice_api, db):
    for body, field in (({}, "query"), ({"query": "  "}, "query"),
                        ({"query": "x", "filters": {"domains": ["gossip"]}}, "filters"),
                        ({"query": "x", "hints": {"hop": -1}}, "hints"),
                        ({"query": "x", "types": ["opinion"]}, "types"),
                        ({"query": "x", "limit": 0}, "limit")):
        response = alice_api.post("/api/v1/search", body, format="json")
        assert response.status_code == 400, body
        assert response.json()["error"] == "invalid" and field in response.json()["fields"]
    assert alice_api.post("/api/v1/search", ["query"], format="json").status_code == 400
    assert not TurnInjection.objects.exists()


def test_session_local_memories_stay_in_their_session(alice_api, remember):
    local = remember("Draft slides use the teal colour palette", domain="professional", scope=Scope.SESSION_LOCAL,
                     session_id="run-1")
    def found(**scope):
        result = search(alice_api, "which colour palette do the draft slides use", scope={"user_id": "alice", **scope})
        return [hit["id"] for hit in result["results"]]

    assert local.pk in found(session_id="run-1")
    assert local.pk not in found(session_id="run-2")
    assert local.pk not in found()


def test_expired_superseded_and_fully_decayed_memories_are_excluded(alice_api, remember):
    old = remember("Lives in Munich", attribute="residence")
    new = remember("Lives in Berlin", attribute="residence")
    Memory.objects.filter(pk=old.pk).update(status=Status.SUPERSEDED, superseded_by=new)
    expired = remember("Lives near the Munich river park", status=Status.EXPIRED)
    faded = remember("Lunch in Munich with the old team", type="event", age_days=400)
    found = [hit["id"] for hit in search(alice_api, "where do I live Munich Berlin")["results"]]
    assert new.pk in found
    assert not {old.pk, expired.pk, faded.pk} & set(found)


def test_needs_review_memories_wait_for_approval(alice_api, remember):
    pending = remember("Likes flat white coffee", type="preference", needs_review=True, confidence=0.7)
    assert pending.pk not in [hit["id"] for hit in search(alice_api, "what coffee do I like")["results"]]


def test_caps_limit_types_and_characters(alice_api, remember, recall_config):
    notes = ["Ethiopian beans taste of blueberries", "Kenyan beans are bright and winey",
             "Brazilian beans make a nutty espresso", "Colombian beans suit the morning filter",
             "Sumatran beans are earthy and heavy", "Guatemalan beans have a cocoa finish"]
    for n, note in enumerate(notes):
        remember(f"Coffee tasting note: {note}", type="preference" if n % 2 else "fact")
    every = search(alice_api, "coffee tasting note beans", limit=10)
    assert len(every["results"]) == 6
    assert (every["limit"], every["matched"], every["fewer_reason"]) == (10, 6, "fewer_matched")
    two = search(alice_api, "coffee tasting note beans", limit=2)
    assert len(two["results"]) == 2 and two["fewer_reason"] == ""
    only_prefs = search(alice_api, "coffee tasting note beans", types=["preference"])["results"]
    assert len(only_prefs) == 3 and {hit["type"] for hit in only_prefs} == {"preference"}
    recall_config({"memory_retrieval": {"max_memories": 4}})
    assert len(search(alice_api, "coffee tasting note beans", limit=50)["results"]) == 4
    recall_config({"memory_retrieval": {"max_chars": 130}})
    capped = search(alice_api, "coffee tasting note beans")["results"]
    assert 1 <= len(capped) and sum(len(hit["content"]) for hit in capped) <= 130


def test_near_duplicates_are_suppressed(alice_api, remember):
    first = remember("Prefers window seats on long flights", type="preference", importance=0.9)
    remember("prefers window seats on long flights!", type="preference", importance=0.2)
    result = search(alice_api, "which seat do I like on flights")
    assert [hit["id"] for hit in result["results"]] == [first.pk]


def test_a_close_match_outranks_fresher_weak_ones_however_old(alice_api, recall_config, remember):
    pasteis = remember("Loved the pasteis de nata in Lisbon", type="event", age_days=90)  # freshness 0.11
    weak = [remember(text, type="event").pk for text in (
        "Likes flat white coffee with oat milk", "Alex is worried about the apartment move to Hamburg",
        "Tom is moving to Hamburg in the autumn")]

    def ranked():
        result = search(alice_api, "what did I enjoy eating in Lisbon")
        return [hit["id"] for hit in result["results"]], result["results"]

    order, hits = ranked()
    assert order[0] == pasteis.pk and set(order[1:]) <= set(weak)
    assert "cos " in hits[0]["explanation"]["text"]
    recall_config({"memory_retrieval": {"freshness_weight": 1.0}})  # relevance × freshness: age decides
    assert ranked()[0][-1] == pasteis.pk


def test_a_much_mentioned_persons_unrelated_memories_stay_out_of_the_graph(alice_api, remember):
    caroline = factories.person("alice", "Caroline")
    support = remember("Went to an LGBTQ support group meeting, it was powerful", type="event",
                       entities=[caroline], age_days=120)
    for n, text in enumerate(["Caroline's new running shoes are blue", "Caroline baked bread on Sunday",
                              "Caroline repainted her kitchen", "Caroline watched a sci-fi film",
                              "Caroline's cat knocked over a plant", "Caroline tried a new ramen place"]):
        remember(text, type="event", entities=[caroline], age_days=n)
    result = search(alice_api, "When did Caroline go to the LGBTQ support group?")
    assert result["results"][0]["id"] == support.pk
    graph_found = [hit for hit in result["results"] if "graph" in hit["explanation"]["retrievers"]]
    assert [hit["id"] for hit in graph_found] == [support.pk]


def test_search_works_on_text_and_graph_with_semantic_off(alice_api, recall_config, db, remember):
    recall_config({"memory_semantic": {"enabled": False, "rerank_enabled": False}})
    sarah = factories.person("alice", "Sarah Chen")
    alex = factories.person("alice", "Alex")
    factories.relation(alex, "partner_of", sarah)
    move = remember("Alex is packing boxes for Hamburg", type="event", entities=[alex])
    walk = search(alice_api, "what does Sarah think", hints={"hop": 2})
    assert walk["retrievers"] == ["lexical", "graph"]
    assert walk["results"][0]["id"] == move.pk
    assert walk["results"][0]["explanation"]["hop_path"] == "sarah chen -partner_of-> alex"
    text = search(alice_api, "packing boxes Hamburg")
    assert text["results"][0]["explanation"]["retrievers"] == ["lexical"]


def test_events_about_a_person_not_mentioned_for_180_days_decay_twice_as_fast(alice_api, remember):
    gone, around = factories.person("alice", "Greta"), factories.person("alice", "Hugo")
    Entity.objects.filter(pk=gone.pk).update(last_mentioned_at=timezone.now() - timedelta(days=200))
    Entity.objects.filter(pk=around.pk).update(last_mentioned_at=timezone.now())
    remember("Board game night with Greta", type="event", entities=[gone], age_days=15)
    remember("Board game night with Hugo", type="event", entities=[around], age_days=15)
    freshness = {hit["content"]: hit["freshness"] for hit in search(alice_api, "board game night")["results"]}
    assert abs(freshness["Board game night with Hugo"] - 0.9 * 0.5 ** (15 / 30)) < 0.01
    assert abs(freshness["Board game night with Greta"] - 0.9 * 0.5 ** (15 / 15)) < 0.01


def test_a_friend_who_is_a_hub_brings_only_related_memories(alice_api, remember, recall_config):
    recall_config({"memory_retrieval": {"graph_hub_memories": 5}})
    caroline, melanie = factories.person("alice", "Caroline"), factories.person("alice", "Melanie")
    factories.relation(caroline, "friend_of", melanie)  # the two speakers of a chat: each a hub
    support = remember("Went to an LGBTQ support group meeting, it was powerful", type="event",
                       entities=[caroline], age_days=120)
    hers = [remember(text, type="event", entities=[melanie], age_days=n) for n, text in enumerate([
        "Melanie's new running shoes are blue", "Melanie baked bread on Sunday", "Melanie repainted her kitchen",
        "Melanie watched a sci-fi film", "Melanie's cat knocked over a plant", "Melanie tried a new ramen place"])]
    result = search(alice_api, "When did Caroline go to the LGBTQ support group?", hints={"hop": 1})
    graph_found = {hit["id"] for hit in result["results"] if "graph" in hit["explanation"]["retrievers"]}
    assert support.pk in graph_found and not graph_found & {memory.pk for memory in hers}
    recall_config({"memory_retrieval": {"graph_hub_memories": 50}})  # Melanie is no hub: her newest join
    result = search(alice_api, "When did Caroline go to the LGBTQ support group?", hints={"hop": 1})
    assert {hit["id"] for hit in result["results"] if "graph" in hit["explanation"]["retrievers"]} & {
        memory.pk for memory in hers}


def test_long_memories_are_shortened_so_the_limit_is_filled_within_max_chars(alice_api, recall_config, remember):
    sights = ["marmots", "chamois", "eagles", "glaciers", "waterfalls", "huts", "chapels", "lakes", "pines",
              "ibex", "orchids", "caves", "bridges", "cairns", "vultures", "gentians"]
    for n, place in enumerate(["Bled", "Tatra", "Dolomites", "Picos", "Snowdon", "Triglav", "Olympus", "Ordesa"]):
        seen = " and ".join(sights[(n * 5 + k) % len(sights)] for k in range(5))
        remember(f"Hiking note on {place}: the ridge path has loose scree. We saw {seen} on day {n + 1}, "
                 f"walked {n * 7 + 11} kilometres in {n + 4} hours, slept at {1200 + n * 150} metres and "
                 f"ate {place} cheese from a farm called {place.upper()}-{n} near the trailhead.", type="fact")
    recall_config({"memory_retrieval": {"max_chars": 1600}})
    everywhere = {"include_all_domains": True}
    hits = search(alice_api, "hiking note ridge path scree", limit=8, filters=everywhere)["results"]
    assert len(hits) == 8 and sum(len(hit["content"]) for hit in hits) <= 1600
    assert all(hit["shortened"] and hit["content"].endswith("…") for hit in hits)
    recall_config({"memory_retrieval": {"max_chars": 500}})  # shorter than 160 characters each: fewer hits
    fewer = search(alice_api, "hiking note ridge path scree", limit=8, filters=everywhere)
    assert 1 <= len(fewer["results"]) < 8 and all(len(hit["content"]) >= 159 for hit in fewer["results"])
    assert fewer["matched"] >= 8 and fewer["fewer_reason"] == "filtered"
