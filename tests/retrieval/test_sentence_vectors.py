"""A long memory is found by the one sentence that answers the question (memories/sentences.py)."""
from django.utils import timezone

from memories.models import Memory, MemorySentence
from memories.sentences import embedding_text, sentence_texts
from memories.services import memory_forget, memory_supersede, memory_update
from memories.tasks import embed_memories, embed_pending_memories
from search.retrieval import search_memories
from tests import factories

CATCH_UP = ("Anna: Hey Ben, so good to hear from you! The weekend was a blur of errands and laundry. "
            "Oh, and I finally signed up for violin lessons on Tuesday evenings. Anyway, say hi to everyone!")
OTHERS = [
    "Anna: Hey Ben! Long time no talk, how was your weekend? Say hi to your mom for me!",
    "Anna: Thanks so much, Ben, that means a lot. Talk soon and take care!",
    "Anna: Errands all weekend again, and the laundry pile keeps growing.",
    "Anna: The concert on Friday was loud and crowded, we left early.",
    "Anna: Ben's sister sings in a choir.",
    "Anna: Bought tickets for the opera in March.",
    "Anna: Her favourite song was on the radio again.",
    "Anna: The neighbours' kid practises drums every night.",
]


def test_a_memory_of_several_sentences_gets_a_vector_per_sentence_without_its_speaker():
    assert sentence_texts(CATCH_UP, {"Anna"}) == [
        "Hey Ben, so good to hear from you!",
        "The weekend was a blur of errands and laundry.",
        "Oh, and I finally signed up for violin lessons on Tuesday evenings.",
        "Anyway, say hi to everyone!",
    ]
    assert embedding_text(CATCH_UP, {"Anna"}).startswith("Hey Ben, so good")
    assert sentence_texts("Allergic to penicillin") == []
    assert sentence_texts("Wow! Moved to Porto last spring.") == []  # "Wow!" says nothing on its own


def _rank(query: str, memory_id: int) -> int | None:
    hits = search_memories(user_id="alice", query=query, include_all_domains=True, limit=10).hits
    ids = [hit.memory.pk for hit in hits]
    return ids.index(memory_id) + 1 if memory_id in ids else None


def test_the_sentence_that_answers_finds_a_long_chatty_memory(remember):
    anna = factories.person("alice", "Anna")  # the speaker, linked to each of her lines as ingest links it
    target = remember(CATCH_UP, type="event", entities=[anna])
    for text in OTHERS:
        remember(text, type="event", entities=[anna])
    assert MemorySentence.objects.filter(memory=target).count() == 4
    question = "Which instrument is Anna learning?"
    with_sentences = _rank(question, target.pk)
    # Without its sentence vectors the same memory is only matched by its whole, chatty text.
    MemorySentence.objects.filter(memory=target).delete()
    without = _rank(question, target.pk)
    assert with_sentences <= 2 and (without or 99) > with_sentences


def test_an_edit_replaces_the_sentence_vectors_and_forgetting_leaves_none(db):
    memory = factories.memory("alice", CATCH_UP, type="event")
    embed_pending_memories()
    assert MemorySentence.objects.filter(memory=memory).count() == 4
    memory_update(memory=memory, actor="alice", content="Takes violin lessons on Tuesdays. Practises every morning.")
    assert not MemorySentence.objects.filter(memory=memory).exists()  # the old text's sentences are gone at once
    embed_memories([memory.pk])
    assert MemorySentence.objects.filter(memory=memory, user_id="alice").count() == 2
    memory_forget(memory=memory, actor="alice")
    assert not Memory.objects.filter(pk=memory.pk).exists()
    assert not MemorySentence.objects.exists()


def test_memories_embedded_before_sentence_vectors_are_embedded_again_after_the_upgrade(db):
    """Migration 0011's update: a multi-sentence memory embedded without its sentences waits for the retry job."""
    from importlib import import_module

    from django.db import connection

    upgrade = import_module("memories.migrations.0011_memory_sentences").REEMBED_MULTI_SENTENCE
    long_one = factories.memory("alice", CATCH_UP, type="event")
    short_one = factories.memory("alice", "Allergic to penicillin", type="fact")
    embed_pending_memories()
    MemorySentence.objects.all().delete()  # as before the upgrade
    with connection.cursor() as cursor:
        cursor.execute(upgrade)
    assert dict(Memory.objects.values_list("pk", "embedding_status")) == {long_one.pk: "pending",
                                                                          short_one.pk: "ready"}
    assert Memory.objects.get(pk=long_one.pk).embedding is not None  # still searchable meanwhile
    embed_pending_memories()
    assert MemorySentence.objects.filter(memory=long_one).count() == 4


def test_lines_whose_label_is_no_speaker_are_embedded_again_with_it(db):
    """Migration 0013's update: only a linked person's name before the colon is a speaker to leave out."""
    from importlib import import_module

    from django.db import connection

    upgrade = import_module("memories.migrations.0013_reembed_labelled_lines").REEMBED_LABELLED_LINES
    spoken = factories.memory("alice", CATCH_UP, type="event", entities=[factories.person("alice", "Anna")])
    labelled = factories.memory("alice", "Redis memory usage: 2.1 GB at peak", type="fact")
    embed_pending_memories()
    with connection.cursor() as cursor:
        cursor.execute(upgrade)
    assert dict(Memory.objects.values_list("pk", "embedding_status")) == {spoken.pk: "ready", labelled.pk: "pending"}


def test_with_sentence_vectors_off_none_are_written_and_search_reads_whole_texts(remember, recall_config):
    recall_config({"memory_semantic": {"sentence_vectors": False}})
    anna = factories.person("alice", "Anna")
    target = remember(CATCH_UP, type="event", entities=[anna])
    for text in OTHERS:
        remember(text, type="event", entities=[anna])
    assert not MemorySentence.objects.exists()
    assert (_rank("Which instrument is Anna learning?", target.pk) or 99) > 2  # 2nd with them (above)


def test_a_superseding_memory_inherits_the_vectors_of_what_it_replaced_and_loses_them_with_it(db):
    """Only vectors move (memories/inherited_vectors.py): down the supersession chain, rebuilt when a memory of it
    is embedded again, gone at once when the memory they came from is edited or forgotten."""
    reading = factories.memory("alice", "I'm reading The Hobbit right now, loving it", type="event")
    finished = factories.memory("alice", "Finished The Hobbit! Starting The Fellowship of the Ring next", type="event")
    embed_pending_memories()
    memory_supersede(old=reading, new=finished, at=timezone.now())
    reading.refresh_from_db()
    inherited = MemorySentence.objects.get(memory=finished, inherited_from=reading.pk)
    assert inherited.user_id == "alice" and list(inherited.embedding) == list(reading.embedding)
    halfway = factories.memory("alice", "Halfway through The Two Towers now", type="event")
    embed_pending_memories()
    memory_supersede(old=finished, new=halfway, at=timezone.now())
    assert sorted(MemorySentence.objects.filter(memory=halfway).values_list("inherited_from", flat=True)) == sorted(
        [reading.pk, finished.pk])
    memory_update(memory=reading, actor="alice", content="I'm reading The Silmarillion")
    assert not MemorySentence.objects.filter(inherited_from=reading.pk).exists()  # the old words' vector, at once
    embed_memories([reading.pk])
    assert MemorySentence.objects.filter(memory=halfway, inherited_from=reading.pk).count() == 1
    memory_forget(memory=reading, actor="alice")
    assert not MemorySentence.objects.filter(inherited_from=reading.pk).exists()
    assert MemorySentence.objects.filter(memory=halfway, inherited_from=finished.pk).count() == 1
