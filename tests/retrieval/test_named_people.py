"""A question naming a person: the graph says whom a memory is about, the vector what it says (unnamed.py)."""
import pytest

from memories.embedding import embed_search_query, embed_texts
from memories.sentences import embedding_text
from search import retrieval
from search.retrieval import _QueryEmbedding, search_memories
from search.retrieval.unnamed import capitalised_names, without_names, written_names
from tests import factories

ANNA_TALK = [
    "Anna: Hey Ben! Long time no talk, how was your weekend? Say hi to your mom for me!",
    "Anna: Thanks so much, Ben, that means a lot. Talk soon and take care!",
    "Anna: Wow, Ben, that is so great to hear! I'm really happy for you.",
    "Anna: Haha, Ben, you always know how to cheer me up.",
]
ANNA_SWIMS = "Anna: Yep. Taking care of ourselves is vital. I'm off to go swimming with the kids. Talk to you soon!"
BEN_SWIMS = "Ben: Anna, we went swimming and hiking with the kids at the lake on Saturday, such a fun family day."


def test_the_names_a_query_writes_are_put_as_they():
    assert capitalised_names("What did Jon and Gina both do? Has Jon been to Paris?") == ["Jon", "Gina", "Jon", "Paris"]
    assert capitalised_names("Where did I go with Sarah Chen?") == ["Sarah Chen"]
    assert without_names("What do Melanie's kids like, and Melanie?", ["Melanie"]) == "What do their kids like, and they?"
    assert without_names("What does Jon like?", []) == "What does Jon like?"
    # A role phrase is no name: "my boss" stays in the words the vector matches.
    assert written_names("What did my boss say to Tom?", ["my boss", "Tom"]) == ["Tom"]


def test_a_memory_is_embedded_without_its_speaker_but_with_any_other_label():
    assert embedding_text(BEN_SWIMS, {"Ben"}).startswith("Anna, we went swimming")
    assert embedding_text(BEN_SWIMS, {"Anna"}) == BEN_SWIMS  # Anna is spoken to, not speaking
    assert embedding_text("Redis memory usage: 2.1 GB at peak", {"Ben"}) == "Redis memory usage: 2.1 GB at peak"
    assert embedding_text("Allergic to penicillin") == "Allergic to penicillin"


def test_the_vector_stored_leaves_out_only_a_linked_speaker(remember):
    ben = factories.person("alice", "Ben")
    spoken = remember(BEN_SWIMS, type="event", entities=[ben])
    labelled = remember("Update: the build now takes 4 minutes", type="event", entities=[ben])
    spoken.refresh_from_db(), labelled.refresh_from_db()
    stripped, whole = embed_texts([BEN_SWIMS.removeprefix("Ben: "), labelled.content])
    assert list(spoken.embedding) == pytest.approx(stripped, abs=1e-5)
    assert list(labelled.embedding) == pytest.approx(whole, abs=1e-5)


@pytest.mark.parametrize(("people", "embedded"), [
    (["Anna"], "What does they do with the kids?"),  # the guess at the names was right
    ([], "What does Anna do with the kids?"),  # Anna is no person of the user's: the query as written
])
def test_the_query_vector_leaves_out_the_people_resolved(db, monkeypatch, people, embedded):
    monkeypatch.setattr(retrieval, "_named_before", {})  # no prediction from another test's searches
    vector, text = _QueryEmbedding("What does Anna do with the kids?", "alice").result(people)
    assert vector == pytest.approx(embed_search_query(embedded), abs=1e-6)
    assert text.startswith("[")


def test_a_query_naming_the_same_words_again_is_embedded_once_as_they_resolved_before(db, monkeypatch):
    monkeypatch.setattr(retrieval, "_named_before", {})
    query = "What does Anna do in Paris?"
    first = _QueryEmbedding(query, "alice")
    assert len(first.pending) == 2  # the guess (Anna and Paris as "they") and the query as written
    first.result(["Anna"])
    again = _QueryEmbedding(query, "alice")
    assert list(again.pending) == ["What does they do in Paris?"]
    assert len(_QueryEmbedding(query, "bob").pending) == 2  # nothing predicted from another user's words
    vector, _ = again.result([])  # Anna is no longer a person of alice's: the prediction was wrong
    assert vector == pytest.approx(embed_search_query(query), abs=1e-6)
    assert len(_QueryEmbedding(query, "alice").pending) == 1  # and is learnt again


def test_a_question_about_a_person_finds_what_they_did_before_what_others_did(remember, recall_config):
    anna, ben = factories.person("alice", "Anna"), factories.person("alice", "Ben")
    target = remember(ANNA_SWIMS, type="event", entities=[anna])
    for text in ANNA_TALK:
        remember(text, type="event", entities=[anna])
    other = remember(BEN_SWIMS, type="event", entities=[ben])

    def ranked() -> list[int]:
        hits = search_memories(user_id="alice", query="What activities does Anna do with her kids?",
                               include_all_domains=True, limit=10).hits
        return [hit.memory.pk for hit in hits]

    assert ranked()[0] == target.pk
    assert ranked().index(other.pk) > 0  # still found, after hers
    # Weighed as Anna's own, Ben's closer match would come first.
    recall_config({"memory_retrieval": {"others_weight": 1.0}})
    assert ranked().index(other.pk) < ranked().index(target.pk)
