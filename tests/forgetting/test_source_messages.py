"""The words a memory came from are kept as its source message, and only while a memory names it: forgetting
a person, a session or one memory, and the expiry purge, leave none of them behind."""
from entities.models import Entity
from forgetting.criteria import DeleteCriteria
from forgetting.services import deletion_counts, hard_delete
from ingest.remember import remember_memory
from memories.expiry import purge_expired
from memories.models import Memory, SourceMessage
from memories.services import memory_forget
from tests.forgetting.conftest import days_ago, residue
from tests.pipeline.conftest import MONDAY, ingest


def forget(user_id="alice", **criteria):
    return hard_delete(user_id=user_id, criteria=DeleteCriteria(**criteria), actor=user_id)


def test_a_message_that_yields_a_memory_keeps_its_words_with_session_and_time(db):
    trace = ingest("My friend Emma Larsson loves sailing.", "ha that's funny", session_id="chat-1")
    said = SourceMessage.objects.get(user_id="alice")
    assert (said.text, said.session_id, said.at, said.speaker) == (
        "My friend Emma Larsson loves sailing.", "chat-1", MONDAY, "user")
    memory = Memory.objects.get(pk=trace.memory_ids[0])
    assert said.message_id in memory.source_message_ids
    assert not SourceMessage.objects.filter(text__contains="funny").exists()  # it yielded nothing


def test_a_message_that_only_repeats_a_memory_keeps_its_words_too(db):
    first = ingest("I prefer morning meetings.", session_id="s1")
    again = ingest("I prefer morning meetings!", session_id="s2")
    assert [entry.outcome for entry in again.entries] == ["reinforced"]
    memory = Memory.objects.get(pk=first.memory_ids[0])
    said = dict(SourceMessage.objects.filter(user_id="alice").values_list("session_id", "text"))
    assert said == {"s1": "I prefer morning meetings.", "s2": "I prefer morning meetings!"}
    assert set(SourceMessage.objects.values_list("message_id", flat=True)) == set(memory.source_message_ids)


def test_remember_memory_keeps_what_it_was_given(db):
    memory = remember_memory(user_id="alice", actor="alice", session_id="assistant", content="Prefers window seats")
    said = SourceMessage.objects.get(user_id="alice")
    assert said.text == "Prefers window seats" and memory.source_message_ids == [said.message_id]


def test_forgetting_a_person_leaves_none_of_her_words(db):
    ingest("My friend Emma Larsson loves sailing.", session_id="s1")
    ingest("My colleague Jonas Berg plays chess every Tuesday.", session_id="s2")
    ingest("My friend Emma Larsson loves sailing.", user_id="bob", session_id="s1")
    emma = Entity.objects.live().get(user_id="alice", normalized_name="emma larsson")
    forget(entity_refs=[emma.public_id])
    assert residue("alice", ["Larsson", "sailing"]) == []
    assert list(SourceMessage.objects.filter(user_id="alice").values_list("session_id", flat=True)) == ["s2"]
    assert SourceMessage.objects.filter(user_id="bob").count() == 1


def test_forgetting_a_session_counts_and_removes_its_words(db):
    ingest("My colleague Jonas Berg plays chess every Tuesday.", session_id="s1")
    ingest("I prefer window seats on long flights.", session_id="s2")
    counts = deletion_counts(user_id="alice", criteria=DeleteCriteria(source_session=["s1"]))
    assert counts["source_messages"] == 1
    assert forget(source_session=["s1"])["counts"]["source_messages"] == 1
    assert residue("alice", ["Jonas", "chess"]) == []
    assert SourceMessage.objects.filter(user_id="alice", session_id="s2").exists()


def test_forgetting_one_memory_removes_words_no_other_memory_names(db):
    trace = ingest("I prefer window seats on long flights.", session_id="s1")
    memory = Memory.objects.get(pk=trace.memory_ids[0])
    ingest("My colleague Jonas Berg plays chess every Tuesday.", session_id="s1")
    assert memory_forget(memory=memory, actor="alice")["source_messages"] == 1
    assert residue("alice", ["window seats"]) == []
    assert SourceMessage.objects.filter(user_id="alice", text__contains="Jonas").exists()


def test_words_another_memory_still_names_stay(db):
    first = Memory.objects.get(pk=ingest("I prefer window seats on long flights.").memory_ids[0])
    other = remember_memory(user_id="alice", actor="alice", session_id="s2", content="Prefers aisle seats at work",
                            source_message_id=first.source_message_ids[0])
    memory_forget(memory=first, actor="alice")
    assert SourceMessage.objects.filter(user_id="alice", message_id=other.source_message_ids[0]).exists()


def test_the_expiry_purge_takes_the_words_with_the_memory(db):
    trace = ingest("I prefer window seats on long flights.", session_id="s1")
    Memory.objects.filter(pk__in=trace.memory_ids).update(status="expired", expired_at=days_ago(31))
    assert purge_expired() == {"alice": len(trace.memory_ids)}
    assert residue("alice", ["window seats"]) == []
