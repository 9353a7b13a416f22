"""Ranking is a function of the candidates' rows and the config: tested here without a database."""
from datetime import datetime, timedelta
from datetime import timezone as dt_timezone

import pytest

from search.retrieval.ranking import RankingRow, rank

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=dt_timezone.utc)


def row(pk, content, *, similarity=0.5, lexical=0.0, age_days=0, type="fact", importance=0.5,
        assistant=False, about=False, updated_by=None) -> RankingRow:
    reinforced = (NOW - timedelta(days=age_days)).timestamp()
    return RankingRow(pk=pk, content=content, type=type, confidence=0.9, importance=importance,
                      half_life_days=30.0, reinforced_epoch=reinforced, valid_from_epoch=None, pinned=False,
                      stale_person=False, similarity=similarity, lexical=lexical, said_by_assistant=assistant,
                      about_person=about, updated_by=updated_by)


def ranked(rows, *, limit=10, query="", people_named=False, graph=None) -> list[int]:
    candidates = {"semantic": [r.pk for r in sorted(rows, key=lambda r: -(r.similarity or 0))],
                  "lexical": [r.pk for r in rows if r.lexical], "graph": list(graph or {})}
    hits = rank(candidates, rows, {}, now=NOW, limit=limit, max_chars=4000, freshness_weight=0.2, query=query,
                people_named=people_named, graph_mentions=graph)
    return [hit.memory.pk for hit in hits]


def test_the_closer_match_comes_first_and_freshness_only_orders_near_equals():
    close_old = row(1, "Allergic to penicillin since childhood", similarity=0.80, age_days=90)
    weak_fresh = row(2, "Went to the pharmacy on the corner", similarity=0.45)
    twin_fresh = row(3, "Has a penicillin allergy, says the new doctor", similarity=0.79)
    assert ranked([close_old, weak_fresh, twin_fresh]) == [3, 1, 2]


def test_the_words_of_the_question_count_beside_its_meaning():
    shares_the_rare_word = row(1, "Ordered a Gibson guitar", similarity=0.50, lexical=4.0)
    only_near_in_meaning = row(2, "Plays an instrument on weekends", similarity=0.55)
    assert ranked([only_near_in_meaning, shares_the_rare_word]) == [1, 2]


def test_a_memory_decayed_below_the_floor_is_left_out():
    fresh = row(1, "Lives in Porto", similarity=0.5)
    long_gone = row(2, "Had a cold", similarity=0.9, age_days=400)  # 0.9 × 0.5^(400/30): far below 0.05
    assert ranked([fresh, long_gone]) == [1]


def test_a_named_persons_memories_come_before_others_that_match_as_well():
    others = row(1, "Ben went swimming at the lake", similarity=0.70)
    hers = row(2, "Off to go swimming with the kids", similarity=0.62, about=True)
    assert ranked([others, hers], people_named=True) == [2, 1]
    assert ranked([others, hers], people_named=False) == [1, 2]


@pytest.mark.parametrize(("query", "order"), [
    ("Which library for auth?", [2, 1]),  # the user's own words first
    ("What would you suggest for auth?", [2, 1]),  # asks for advice: both weigh the same, as they match
    ("Which library did you recommend for auth?", [1, 2]),  # asks what the assistant said: its words first
])
def test_what_the_assistant_said_weighs_less_unless_the_question_asks_after_it(query, order):
    recommended = row(1, "I'd recommend Authlib for OAuth in Flask", similarity=0.70, assistant=True)
    users_question = row(2, "Which library should I use for auth in my Flask app?", similarity=0.80)
    assert ranked([recommended, users_question], query=query) == order


def test_the_limit_holds_a_near_duplicate_gives_way_and_each_hit_says_why(recall_config):
    rows = [row(1, "Prefers window seats on flights", similarity=0.9),
            row(2, "prefers window seats on flights!", similarity=0.85),
            row(3, "Books aisle seats for long trains", similarity=0.6),
            row(4, "Flies to Lisbon in May", similarity=0.5)]
    assert ranked(rows, limit=2) == [1, 3]
    candidates = {"semantic": [1, 3], "lexical": [3]}
    hits = rank(candidates, rows[::2], {}, now=NOW, limit=5, max_chars=4000, freshness_weight=0.2)
    assert hits[1].retrievers == ["lexical", "semantic"]
    assert hits[1].explanation.startswith("found by lexical #1, semantic #2; cos 0.60;")
    recall_config({"memory_retrieval": {"near_duplicate_ratio": 100}})
    assert ranked(rows, limit=2) == [1, 2]


def test_the_graph_adds_what_the_words_cannot():
    names_her = row(1, "Sarah loves the bakery on Main Street", similarity=0.6)
    through_a_relation = row(2, "Alex worries about moving flats", similarity=0.55)
    plain = row(3, "Thinking about moving somewhere quieter", similarity=0.58)
    assert ranked([names_her, through_a_relation, plain], graph={1: "sarah", 2: "sarah"}) == [2, 1, 3]


def test_a_later_value_kept_beside_an_earlier_one_comes_before_it():
    earliest = row(1, "The staging database holds 120 tables after the migration", similarity=0.90, updated_by=[2])
    middle = row(2, "Counted again: 140 tables in staging", similarity=0.70, updated_by=[3])
    latest = row(3, "We are at 150 tables on the staging server", similarity=0.60)
    other = row(4, "The staging database runs PostgreSQL 16", similarity=0.80)
    assert ranked([earliest, middle, latest, other]) == [3, 2, 1, 4]
    assert ranked([earliest, other]) == [1, 4]  # the update not found: nothing moves
    twin = row(5, "The staging database holds 130 tables after the migration", similarity=0.50)
    assert ranked([row(1, earliest.content, similarity=0.9, updated_by=[5]), twin]) == [5]  # the near-duplicate gives way
