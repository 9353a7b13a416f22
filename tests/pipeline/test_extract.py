"""extract (rules): the seed's forms, the inference invariant, hedges, the no-pattern fallback and its kinds."""
from datetime import date
from pathlib import Path

import pytest
import yaml

from ingest.pipeline.extract import candidates_for
from ingest.pipeline.pre_filter import relevance_score
from recall_site.config import recall_setting
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


def test_a_reaction_is_not_a_taste_and_a_chat_line_is_no_instruction_to_the_assistant():
    assert [c.type for c in candidates_for(message("I love that you chose pottery for your art!"))] == ["event"]
    assert [c.type for c in candidates_for(message("Wow, I love it"))] == ["event"]
    assert only("I love hiking in the Alps").content == "Loves hiking in the Alps"
    assert [c.type for c in candidates_for(message("Yeah, I love to. It's peaceful."))] == ["event"]
    assert [c.type for c in candidates_for(message("Oh I like to hear."))] == ["event"]
    assert only("I love hiking too!").content == "Loves hiking"
    assert only("Always reply in English").content == "Wants the assistant to always reply in English"
    said = candidates_for(message("Always reply in English", speaker="Caroline"))
    assert not any("assistant" in c.content for c in said)


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


def test_a_visit_next_weekend_is_kept_with_the_relation():
    relation, event = candidates_for(message("My sister Emma is visiting next weekend"))
    assert (relation.relation.subject.text, relation.relation.predicate) == ("Emma", "sibling_of")
    assert (event.type, event.content) == ("event", "My sister Emma is visiting next weekend")
    assert event.valid_from.date() == date(2026, 12, 12)  # the Saturday of next week
    assert "Emma" in [m.text for m in event.mentions]


@pytest.mark.parametrize("text", [
    "I think I am allergic to cats", "maybe I'm allergic to cats", "I'm probably allergic to cats",
    "I guess I prefer morning meetings", "not sure, but I might prefer morning meetings",
])
def test_hedged_statements_stay_under_the_sensitive_gate(text):
    found = candidates_for(message(text))
    assert found and all(c.confidence == 0.6 for c in found), [(c.content, c.confidence) for c in found]
    assert all(c.confidence < recall_setting("gating.sensitive_min_confidence") for c in found)


def test_a_plain_statement_keeps_stated_confidence_and_thinking_about_is_no_hedge():
    assert only("I'm allergic to cats").confidence == 0.9
    assert only("I think about my sister Emma a lot").confidence == 0.9


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


def test_a_dated_event_in_the_past_is_an_experience_and_one_ahead_an_appointment():
    past = only("I went to a jazz concert with Priya yesterday")
    ahead = only("concert with Priya on Friday")
    assert (past.type, past.half_life_days, past.details["kind"]) == ("event", 180, "experience")
    assert past.valid_from.date() < MONDAY.date() < ahead.valid_from.date()
    assert ahead.half_life_days is None  # the event half-life (30 days), counted from Friday


def test_a_story_about_someone_who_seemed_sad_is_kept_and_an_inference_about_the_user_is_not_retold():
    story = candidates_for(message("I sat with a girl at the shelter. She seemed so sad. We talked for an hour."))
    assert [c.type for c in story] == ["event"] and "She seemed so sad" in story[0].content
    mixed = candidates_for(message("You seem stressed lately. I booked a massage for Saturday at the spa downtown."))
    inferred = [c for c in mixed if c.details.get("inferred")]
    assert len(inferred) == 1 and inferred[0].confidence == 0.2
    assert all("stressed" not in c.content for c in mixed if not c.details.get("inferred"))
    assert any("massage" in c.content for c in mixed)
    hedge = candidates_for(message("As you might be able to tell, I love it"))
    assert not any(c.details.get("inferred") for c in hedge)


def test_a_relevant_message_matching_no_pattern_is_kept_as_an_episodic_event():
    text = "Alex is worried about the apartment move"
    assert relevance_score(text)[0] >= 0.55
    episodic = only(text)
    assert episodic.type == "event" and episodic.details["episodic"] is True
    assert episodic.content == text and [m.text for m in episodic.mentions] == ["Alex"]
    assert episodic.importance < 0.5
    assert episodic.half_life_days == 180  # what was said, not a 30-day appointment


def test_what_someone_thinks_is_kept_as_their_opinion():
    text = "Alex thinks the apartment move to Potsdam is a mistake because of the long commute."
    opinion = only(text)
    assert (opinion.type, opinion.content, opinion.details["kind"]) == ("event", text, "opinion")
    assert [(m.text, m.kind, m.role) for m in opinion.mentions] == [
        ("Alex", "person", "subject"), ("Potsdam", "place", "mention")]


@pytest.mark.parametrize("text, kind", [
    ("I went to a support group yesterday and it was so powerful", "experience"),
    ("We visited the old harbour with the kids", "experience"),
    ("Sarah believes remote work is overrated", "opinion"),
    ("Emma is planning to adopt a second dog", "plan"),
    ("I'm going to run the city half marathon", "plan"),
    ("Our book club reads one novel a month", "statement"),
])
def test_episodic_memories_say_what_kind_of_telling_they_are(text, kind):
    episodic = only(text)
    assert (episodic.details.get("episodic"), episodic.details["kind"]) == (True, kind)


def test_a_dated_appointment_stays_an_event_with_the_event_half_life():
    event = only("dinner with Sarah on Friday")
    assert event.type == "event" and "episodic" not in event.details and event.half_life_days is None


def test_a_long_message_keeps_its_whole_text_beside_its_typed_memories():
    text = "I prefer morning meetings. My team is spread over three time zones, and the early slot suits everyone."
    found = candidates_for(message(text))
    assert [c.type for c in found] == ["preference", "event"]
    assert found[0].content == "Prefers morning meetings" and found[1].content == text
    assert found[1].details["episodic"] is True


def test_a_short_message_keeps_its_whole_text_when_its_typed_memory_leaves_the_news_out():
    """The relation holds who Tom is; what he wants and by when is only in the whole text."""
    found = candidates_for(message("My manager Tom wants the quarterly report by Friday."))
    assert [(c.type, c.content) for c in found] == [
        ("relation", "Tom is the user's manager"), ("event", "My manager Tom wants the quarterly report by Friday.")]
    # A typed memory that says all but a few small words leaves nothing more to keep.
    assert [c.type for c in candidates_for(message("My sister Anna lives in Berlin."))] == ["relation", "fact"]
    assert [c.type for c in candidates_for(message("I think about my sister Emma a lot"))] == ["relation"]
    assert [c.content for c in candidates_for(message("I don't like cilantro at all."))] == ["Dislikes cilantro"]


def test_family_said_in_other_forms_makes_relations():
    assert [(c.type, c.content) for c in candidates_for(message("My wife's name is Priya."))] == [
        ("relation", "Priya is the user's wife")]
    found = candidates_for(message("Mark's mom Susan is coming to stay with us for Thanksgiving."))
    assert [(c.type, c.content) for c in found] == [
        ("relation", "Susan is Mark's mom"),
        ("event", "Mark's mom Susan is coming to stay with us for Thanksgiving.")]
    assert found[0].relation.predicate == "parent_of"


def test_pets_counted_before_their_names_are_pets_of_whoever_has_them():
    found = candidates_for(message("We have two cats, Miso and Tofu."))
    assert [c.content for c in found if c.type == "relation"] == ["Miso is the user's cat", "Tofu is the user's cat"]
    assert {m.kind for c in found if c.type == "relation" for m in c.mentions[:1]} == {"pet"}
    seen = candidates_for(message("I saw two dogs, Max and Bella, at the park."))
    assert [c.content for c in seen if c.type != "event"] == ["Max is a dog", "Bella is a dog"]  # nobody's


def test_a_number_left_unsaid_keeps_the_message():
    found = candidates_for(message("My son is called Leo and he's 4."))
    assert [(c.type, c.content) for c in found] == [
        ("relation", "Leo is the user's son"), ("event", "My son is called Leo and he's 4.")]


def test_a_meeting_moved_to_a_day_is_nobodys_new_home():
    assert [c.type for c in candidates_for(message("The meeting with Dana moved to Thursday."))] == ["event"]
    assert [c.content for c in candidates_for(message("Dana moved to Lisbon last year."))][0] == "Dana lives in Lisbon"


def test_a_childs_coach_or_teacher_is_worth_keeping():
    assert relevance_score("Jake's coach is Mr. Brown.")[0] >= recall_setting("memory.relevance_threshold")


def test_reschedules_carry_a_pattern_key():
    assert only("moved my Monday 9am meeting").details["pattern_key"] == "avoid:monday:morning"


def test_a_preference_is_the_thing_preferred_without_its_reason():
    """"I'd rather" is a preference; a reason or another clause after the thing is not part of it (the whole
    message is kept beside it)."""
    for text, preference in (("I'd rather use Vue than React, I know it better.", "Prefers Vue over React"),
                             ("Actually I prefer aisle seats now because of my knee.", "Prefers aisle seats")):
        found = candidates_for(message(text))
        assert [c.content for c in found if c.type == "preference"] == [preference]
        assert [c.content for c in found if c.type == "event"] == [text.removeprefix("Actually ")]
    assert relevance_score("Carlos has a dog called Pepper.")[0] >= recall_setting("memory.relevance_threshold")


def test_what_to_call_the_user_their_age_and_what_not_to_remind_them_of():
    said = {c.attribute or c.type: c.content
            for text in ("My name is David but call me Dave.", "I'm 34 years old.",
                         "Please don't remind me about the gym anymore.", "Sorry, my birthday is actually May 14.")
            for c in candidates_for(message(text)) if c.type != "event"}
    assert said == {"name": "Name is David", "called": "Wants to be called Dave", "age": "Is 34 years old",
                    "preference": "Wants the assistant to never remind me about the gym",
                    "birthday": "Birthday is May 14"}
    decided = candidates_for(message("Let's try Polars then."))
    assert [(m.text, m.kind) for m in decided[0].mentions] == [("Polars", "thing")]
    assert relevance_score("Let's try Polars then.")[0] >= recall_setting("memory.relevance_threshold")


def test_allergies_diets_and_foods_said_in_other_forms_are_typed():
    said = [(c.attribute, c.content) for text in (
        "I have a severe shellfish allergy.", "I'm allergic to cats, dogs and dust.", "I'm on a low-carb diet.",
        "I don't eat pork.", "I'm not vegan anymore.") for c in candidates_for(message(text)) if c.type != "event"]
    assert said == [("allergy:shellfish", "Allergic to shellfish"), ("allergy:cats", "Allergic to cats"),
                    ("allergy:dogs", "Allergic to dogs"), ("allergy:dust", "Allergic to dust"),
                    ("diet", "Is on a low-carb diet"), ("taste:pork", "Does not eat pork"),
                    ("diet", "No longer vegan")]


@pytest.mark.parametrize("said, fact", [
    ("As a nurse, 12-hour shifts are pretty normal for me", "Works as a nurse"),
    ("As a vegetarian, I always struggle at BBQs", "Is vegetarian"),
    ("Being from Toronto, I'm used to the cold", "Is from Toronto"),
    ("I've been a software engineer at Shopify for 3 years now", "Works at Shopify"),
    ("I've been a software engineer at Shopify for 3 years now", "Works as a software engineer"),
    ("I can't have dairy, so no cheese for me", "Can't have dairy"),
    ("I went fully vegan last month", "Is vegan"),
])
def test_facts_said_in_passing_become_facts(said, fact):
    assert fact in [c.content for c in candidates_for(message(said))]


def test_what_only_sounds_like_a_fact_in_passing_makes_none():
    for said in ("I can't have that happen again", "I've been a bit tired lately", "As a kid I loved Lego"):
        assert [c.type for c in candidates_for(message(said)) if c.type in ("fact", "preference")] == []
