"""Transcript speakers: in "Caroline: I …" (or a message named Caroline) "I" is Caroline, never the user."""
from datetime import timedelta

from entities.models import Entity, EntityMention, Relation
from entities.resolver import resolve_mention
from ingest.pipeline import ingest_messages
from memories.models import Memory, MemoryEntity
from tests.pipeline.conftest import MONDAY


def ingest(*contents, name="", session_id="s1"):
    messages = [{"role": "user", "content": text, "name": name, "timestamp": MONDAY + timedelta(seconds=i)}
                for i, text in enumerate(contents)]
    return ingest_messages(user_id="alice", session_id=session_id, source="import", actor="test", messages=messages)


def links(memory):
    return {(link.entity.canonical_name, link.entity.kind, link.role)
            for link in MemoryEntity.objects.filter(memory=memory).select_related("entity")}


def test_a_speakers_story_keeps_her_words_and_is_linked_to_her(db):
    text = "Caroline: I went to a LGBTQ support group yesterday and it was so powerful."
    ingest(text)
    memory = Memory.objects.get()
    assert (memory.content, memory.type, memory.details["kind"], memory.half_life_days) == (
        text, "event", "experience", 180)
    assert memory.subject.canonical_name == "Caroline" and memory.subject.kind == "person"
    assert ("Caroline", "person", "subject") in links(memory)
    assert EntityMention.objects.filter(entity=memory.subject, session_id="s1").exists()
    assert not Entity.objects.filter(kind="self").exists()  # the user said nothing about themself


def test_a_speakers_sister_is_her_sister_not_the_users(db):
    ingest("Caroline: My sister Emma is visiting next weekend")
    relation = Relation.objects.get()
    assert (relation.subject.canonical_name, relation.predicate, relation.object.canonical_name) == (
        "Emma", "sibling_of", "Caroline")
    assert resolve_mention("alice", "my sister").entity is None
    visit = Memory.objects.get(type="event")
    assert visit.content == "Caroline: My sister Emma is visiting next weekend"
    assert visit.valid_from.date().isoformat() == "2026-12-12"


def test_typed_memories_name_the_speaker_and_two_speakers_do_not_supersede_each_other(db):
    ingest("Caroline: I prefer morning meetings", "Caroline: I live in Berlin", "Melanie: I live in Paris")
    contents = set(Memory.objects.filter(status="active").values_list("content", flat=True))
    assert contents == {"Caroline prefers morning meetings", "Caroline lives in Berlin", "Melanie lives in Paris"}
    berlin = Memory.objects.get(content="Caroline lives in Berlin")
    assert berlin.subject.canonical_name == "Caroline" and ("Berlin", "place", "object") in links(berlin)


def test_the_name_field_makes_the_speaker_and_she_is_one_person_across_sessions(db):
    ingest("I just adopted a puppy named Luna", name="Melanie")
    ingest("Melanie: Luna chewed through my favourite running shoes this week.", session_id="s2")
    melanie, luna = Entity.objects.get(canonical_name="Melanie"), Entity.objects.get(canonical_name="Luna")
    assert (melanie.kind, luna.kind) == ("person", "pet")  # a puppy named Luna is nobody's person
    assert {m.content for m in Memory.objects.filter(subject=melanie)} == {
        "Melanie: Luna chewed through my favourite running shoes this week."}
    assert Relation.objects.filter(subject=luna, predicate="pet_of", object=melanie).exists()
    assert Memory.objects.get(subject=luna).content == "Luna is Melanie's puppy"


def test_a_label_before_a_colon_is_no_speaker(db):
    """"Correction: I'm not allergic to shellfish" is the user correcting themselves, not someone named
    Correction: the user's own allergy is taken back."""
    ingest("I'm allergic to shellfish.")
    ingest("Correction: I'm not allergic to shellfish, it's peanuts.", session_id="s2")
    assert not Entity.objects.filter(user_id="alice", canonical_name="Correction").exists()
    assert Memory.objects.get(content="Allergic to shellfish").status == "superseded"
