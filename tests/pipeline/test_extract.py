"""extract (rules): the seed's forms, the inference invariant and the no-pattern fallback."""
from datetime import date
from pathlib import Path

import yaml

from memories.pipeline.extract import candidates_for
from memories.pipeline.pre_filter import relevance_score
from tests.pipeline.conftest import MONDAY, message

FIXTURE = Path(__file__).parents[1] / "fixtures" / "pipeline" / "relevance.yaml"


def only(text, at=MONDAY):
    found = candidates_for(message(text, at=at))
    assert len(found) == 1, [c.content for c in found]
    return found[0]


def test_lunch_with_sarah_thursday_is_an_event_on_the_next_thursday():
    event = only("lunch with Sarah Thursday")
    assert event.type == "event"
    assert [m.text for m in event.mentions] == ["Sarah"]
    assert event.valid_from.date() == date(2026, 12, 3)
    # Sent on a Thursday it means next week's Thursday, not today.
    assert only("lunch with Sarah Thursday", at=MONDAY.replace(day=3, month=12)).valid_from.date() == date(2026, 12, 10)


def test_preference_is_rephrased_with_preference_confidence():
    pref = only("I prefer morning meetings")
    assert (pref.type, pref.content, pref.confidence) == ("preference", "Prefers morning meetings", 0.65)


def test_relation_between_two_people():
    relation = only("Alex is Sarah's partner")
    assert relation.type == "relation"
    assert (relation.relation.subject.text, relation.relation.predicate, relation.relation.object.text) == (
        "Alex", "partner_of", "Sarah")
    assert {m.text for m in relation.mentions} == {"Alex", "Sarah"}


def test_moving_is_a_residence_fact_with_a_365_day_half_life():
    fact = only("just moved to Berlin")
    assert (fact.type, fact.content, fact.attribute, fact.half_life_days) == ("fact", "Lives in Berlin", "residence", 365)
    assert fact.relation.predicate == "lives_in" and fact.relation.object.kind == "place"


def test_employer_and_manager():
    employer = only("I work at Volkswagen")
    assert (employer.type, employer.attribute, employer.content, employer.confidence) == (
        "fact", "employer", "Works at Volkswagen", 0.9)
    manager = only("Sarah is my manager")
    assert manager.type == "relation" and manager.relation.predicate == "manager_of"
    assert manager.mentions[0].role_phrase == "my manager"


def test_my_sister_emma_gives_a_relation_and_a_dated_event():
    relation, event = candidates_for(message("my sister Emma is visiting next week"))
    assert relation.relation.predicate == "sibling_of" and relation.mentions[0].role_phrase == "my sister"
    assert event.type == "event" and event.valid_from.date() == date(2026, 12, 7)


def test_inferences_are_never_facts_over_the_whole_fixture():
    """The invariant: a hedged observation is at most a preference candidate at 0.20, sent to review."""
    texts = ["User seemed stressed", "you sound tired today"]
    for path in (FIXTURE, FIXTURE.with_name("relevance_held_out.yaml")):
        labelled = yaml.safe_load(path.read_text())
        texts += labelled["relevant"] + labelled["junk"]
    inferences = 0
    for text in texts:
        for candidate in candidates_for(message(text)):
            if candidate.details.get("inferred"):
                inferences += 1
                assert (candidate.type, candidate.confidence, candidate.needs_review) == ("preference", 0.2, True)
            if candidate.type == "fact":
                assert "seem" not in candidate.content.lower()
    assert inferences >= 3


def test_a_relevant_message_matching_no_pattern_is_kept_as_an_episodic_event():
    text = "Alex is worried about the apartment move"
    assert relevance_score(text)[0] >= 0.55
    episodic = only(text)
    assert episodic.type == "event" and episodic.details["episodic"] is True
    assert episodic.content == text and [m.text for m in episodic.mentions] == ["Alex"]
    assert episodic.importance < 0.5


def test_reschedules_carry_a_pattern_key():
    assert only("moved my Monday 9am meeting").details["pattern_key"] == "avoid:monday:morning"
