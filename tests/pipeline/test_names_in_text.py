"""names_in_text: who is a person, what is an org, place or thing, which words are never names, who speaks."""
import pytest

from ingest.pipeline.names_in_text import named_mentions, person_statement, speaker_and_text


def kinds(text):
    return [(m.text, m.kind) for m in named_mentions(text)]


@pytest.mark.parametrize("text, name", [
    ("lunch with Sarah Thursday", "Sarah"), ("Sarah thinks the trip is too long", "Sarah"),
    ("my sister Emma is visiting", "Emma"), ("dinner at Sarah's place", "Sarah"),
])
def test_people_stay_people(text, name):
    assert kinds(text) == [(name, "person")]


def test_alex_and_sarah_are_both_people():
    assert kinds("Alex is Sarah's partner") == [("Alex", "person"), ("Sarah", "person")]


@pytest.mark.parametrize("text, expected", [
    ("I practise Spanish on Duolingo every day", ("Duolingo", "thing")),
    ("I log my runs in the Strava app", ("Strava", "thing")),
    ("we were playing Zelda all weekend", ("Zelda", "thing")),
    ("I was watching Breaking Bad again", ("Breaking Bad", "thing")),
    ("she signed with Acme Inc last month", ("Acme Inc", "org")),
    ("Stanford University accepted him", ("Stanford University", "org")),
    ("I coach at the Riverside Club", ("Riverside Club", "org")),
    ("we hiked around Lake Tahoe", ("Lake Tahoe", "place")),
    ("I grew up in Porto", ("Porto", "place")),
])
def test_organisations_products_and_places_are_not_people(text, expected):
    assert kinds(text) == [expected]


def test_question_words_and_sentence_starters_are_never_names():
    text = ("What do you think? When? Where? Hey! Wow. Thanks! Yeah. Congrats! Haha. Good. Sounds great. "
            "That's it. Who knows, Mel?")
    assert kinds(text) == [("Mel", "person")]


def test_a_common_noun_capitalised_after_a_determiner_is_nobody():
    assert kinds("We even played some Chess afterward with Nate.") == [("Nate", "person")]
    assert kinds("A fellow Chef in the kitchen is always a great help!") == []
    assert kinds("I bought an Xbox and a LEGO set") == [("LEGO", "thing")]  # an acronym is left to the kinds


def test_a_memory_starting_with_its_verb_names_nobody():
    assert kinds("Prefers window seats") == kinds("Likes flat white coffee") == []
    assert kinds("Loves hiking with Sarah") == [("Sarah", "person")]


def test_the_subject_of_a_statement_about_someone():
    assert person_statement("Yesterday Alex told me the flat is too small") == "Alex"
    assert person_statement("Emma is planning a trip") == "Emma"
    assert person_statement("That said, it went fine") == ""


@pytest.mark.parametrize("content, name, expected", [
    ("Caroline: I went to a support group", "", ("Caroline", "I went to a support group")),
    ("Dr. Chen: take it daily", "", ("Dr. Chen", "take it daily")),
    ("I went to a support group", "Caroline", ("Caroline", "I went to a support group")),
    ("Caroline: I went", "Caroline", ("Caroline", "I went")),
    ("Note: I prefer tea", "", ("", "Note: I prefer tea")),
    ("Update: moved to Berlin", "", ("", "Update: moved to Berlin")),
    ("What: a day", "", ("", "What: a day")),
    ("I prefer tea", "", ("", "I prefer tea")),
])
def test_a_speaker_comes_from_the_name_field_or_a_name_and_colon(content, name, expected):
    assert speaker_and_text(content, name) == expected


def test_acronyms_in_the_plural_and_acronyms_of_kinds_of_things_are_nobody():
    assert named_mentions("I absolutely love DIYs, and I know she does too.") == []
    assert [(m.text, m.kind) for m in named_mentions('I\'m playing this fantasy RPG called "Xenoblade Chronicles".')
            ] == [("Xenoblade Chronicles", "thing")]
    assert named_mentions("The LGBTQ community has been so supportive since I started my CS degree.") == []
    assert [m.text for m in named_mentions("My cousin works for IBM now.")] == ["IBM"]  # a company's stays
    assert person_statement("this fantasy RPG called Xenoblade") == ""


@pytest.mark.parametrize("text, expected", [
    ("Have you read all of George R. R. Martin's books?", [("George R. R. Martin", "person")]),
    ("I'm allergic to cats, so no Airbnbs with pets.", [("Airbnbs", "thing")]),
    ("I had a nice chat with Harry. Then we watched a Harry Potter movie, the real Potter places next!",
     [("Harry", "person"), ("Harry Potter", "thing"), ("Potter", "thing")]),
])
def test_initials_stay_in_a_name_a_brand_in_the_plural_and_a_titles_last_word_are_no_one_new(text, expected):
    assert kinds(text) == expected
