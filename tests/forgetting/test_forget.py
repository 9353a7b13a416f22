"""Forgetting everything about a person, a session, memory ids or a filter — without residue."""
import pytest
from django.db import DataError
from django_q.models import OrmQ

from audit.models import AuditEvent
from entities.graph import graph_walk
from entities.models import Alias, Entity, EntityMention, Relation, UnresolvedReference
from entities.resolver import resolve_mention
from forgetting.criteria import DeleteCriteria, DeleteRequestError, UnknownTargetError
from forgetting.services import deletion_counts, hard_delete
from memories.models import Memory, MemoryEntity, MemoryHistory, SessionDialogue, TurnInjection, UserProfile
from search.retrieval import search_memories
from tests import factories
from tests.forgetting.conftest import queue_embedding_task, residue

SARAH_WORDS = ["Sarah", "Chen", "Sasha", "Dr. Chen"]


def forget_sarah(world, reason="User requested: 'forget everything about Sarah' (Sasha)"):
    criteria = DeleteCriteria(entity_refs=[world.sarah.public_id])
    return hard_delete(user_id="alice", criteria=criteria, actor="alice", audit_reason=reason)


def test_dry_run_counts_every_table_and_changes_nothing(sarah_world):
    criteria = DeleteCriteria(entity_refs=[sarah_world.sarah.public_id])
    counts = deletion_counts(user_id="alice", criteria=criteria)
    assert counts == {
        "memories": 3, "memory_entity_links": 2, "memory_history": 3, "memory_sentences": 0,
        "source_messages": 0, "superseded_links_cleared": 1,
        "turn_injections": 2, "session_dialogues": 3, "queued_tasks": 0, "entities_removed": 0, "entities_tombstoned": 1,
        "aliases": 5, "mentions": 2, "relations": 1, "entity_reviews": 0, "unresolved_references": 2,
        "ingest_jobs": 0,
    }
    assert Memory.objects.filter(user_id="alice").count() == 5
    assert Entity.objects.get(pk=sarah_world.sarah.pk).canonical_name == "Sarah Chen"
    assert not AuditEvent.objects.filter(action="hard_delete").exists()
    # The real delete removes exactly what the dry run announced.
    assert forget_sarah(sarah_world)["counts"] == counts


def test_forgetting_sarah_leaves_no_residue_and_keeps_everyone_else(sarah_world, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        extra = factories.memory(content="Alex's sister is visiting", session_id="s3",
                                 entities=[sarah_world.alex])
    assert Memory.objects.get(pk=extra.pk).embedding is not None
    task = queue_embedding_task([sarah_world.lunch.pk])
    unrelated_task = queue_embedding_task([sarah_world.alex_climbs.pk])
    before = residue("alice", SARAH_WORDS)
    assert {"memories_memory.content ~ Sarah", "entities_alias.alias ~ Sasha", "entities_entity.canonical_name ~ Chen",
            "entities_unresolvedreference.mention ~ Sasha", "memories_userprofile.favorites ~ Sarah",
            "audit_auditevent.reason ~ Sarah"} <= set(before)

    result = forget_sarah(sarah_world)

    assert residue("alice", SARAH_WORDS) == []
    remaining = set(Memory.objects.filter(user_id="alice").values_list("content", flat=True))
    assert remaining == {"Alex goes climbing on Sundays", "likes black tea", "Alex's sister is visiting"}
    assert Memory.objects.get(pk=extra.pk).embedding is not None
    assert not MemoryHistory.objects.filter(memory_id__in=[sarah_world.lunch.pk, sarah_world.email.pk]).exists()
    assert Memory.objects.get(pk=sarah_world.old_tea.pk).superseded_by is None
    assert list(TurnInjection.objects.filter(user_id="alice").values_list("session_id", "memory_ids")) == [
        ("s3", [sarah_world.alex_climbs.pk])]
    # She may have been a speaker in any of alice's sessions: their dialogue state goes, bob's stays.
    assert list(SessionDialogue.objects.values_list("user_id", flat=True)) == ["bob"]
    assert not OrmQ.objects.filter(pk=task.pk).exists() and OrmQ.objects.filter(pk=unrelated_task.pk).exists()
    assert resolve_mention("alice", "Sarah").entity is None
    found = search_memories(user_id="alice", query="what does Sarah think about lunch", include_all_domains=True)
    assert not [hit for hit in found.hits if "Sarah" in hit.memory.content or "Chen" in hit.memory.content]
    assert not found.resolved_entities or all(r.entity is None for r in found.resolved_entities)
    assert UserProfile.objects.get(user_id="alice").favorites == {"food": "ramen"}
    assert list(UnresolvedReference.objects.filter(user_id="alice").values_list("mention", flat=True)) == [
        "the plumber"]
    # Bob's own Sarah Chen is untouched.
    assert Memory.objects.get(pk=sarah_world.bobs_memory.pk).content == "Sarah Chen is my dentist"
    assert Entity.objects.get(pk=sarah_world.bobs_sarah.pk).canonical_name == "Sarah Chen"
    assert result["audit_event_id"] == AuditEvent.objects.get(action="hard_delete").pk


def test_sarah_becomes_a_bare_tombstone_because_alex_points_at_her(sarah_world):
    forget_sarah(sarah_world)
    tomb = Entity.objects.get(pk=sarah_world.sarah.pk)
    assert tomb.deleted_at is not None
    assert (tomb.canonical_name, tomb.normalized_name, tomb.centroid, tomb.relations_at_creation) == ("", "", None, [])
    assert tomb.public_id == sarah_world.sarah.public_id
    kept = Relation.objects.get(user_id="alice", object=tomb)
    assert (kept.subject_id, kept.predicate) == (sarah_world.alex.pk, "partner_of")
    assert not Relation.objects.filter(subject=tomb).exists()
    assert not MemoryEntity.objects.filter(entity=tomb).exists()
    assert not Alias.objects.filter(entity=tomb).exists() and not EntityMention.objects.filter(entity=tomb).exists()
    assert [a.alias for a in Alias.objects.filter(entity=sarah_world.alex)] == ["Alex Rivera"]
    # Graph walks from Alex never enter the tombstone.
    reached = {r.entity_id for r in graph_walk("alice", [sarah_world.alex.pk], hop=2)}
    assert reached == {sarah_world.alex.pk, sarah_world.acme.pk}


def test_a_person_nobody_points_at_is_removed_entirely(db):
    sam = factories.person(name="Sam Okafor")
    factories.memory(content="Sam likes jazz", session_id="s5", entities=[sam])
    result = hard_delete(user_id="alice", criteria=DeleteCriteria(entity_refs=[sam.public_id]), actor="alice")
    assert result["counts"]["entities_removed"] == 1 and result["counts"]["entities_tombstoned"] == 0
    assert not Entity.objects.filter(pk=sam.pk).exists()
    assert residue("alice", ["Sam", "Okafor"]) == []


def test_audit_event_holds_ids_counts_and_a_reason_category_only(sarah_world):
    forget_sarah(sarah_world)
    event = AuditEvent.objects.get(action="hard_delete")
    assert (event.actor, event.user_id) == ("alice", "alice")
    assert event.target_ids["entity_refs"] == [sarah_world.sarah.public_id]
    assert event.target_ids["session_ids"] == ["s1", "s2"]
    assert event.counts["memories"] == 3
    assert event.reason == "user_request"
    assert AuditEvent.objects.get(action="note").reason == "asked what [redacted] said"


def test_forget_a_session(sarah_world):
    criteria = DeleteCriteria(source_session=["s3"])
    result = hard_delete(user_id="alice", criteria=criteria, actor="alice")
    assert result["counts"]["memories"] == 2
    assert set(Memory.objects.filter(user_id="alice").values_list("session_id", flat=True)) == {"s1", "s2"}
    assert not EntityMention.objects.filter(user_id="alice", session_id="s3").exists()
    assert not UnresolvedReference.objects.filter(session_id="s3").exists()
    assert not TurnInjection.objects.filter(session_id="s3").exists()
    assert sorted(SessionDialogue.objects.values_list("user_id", "session_id")) == [
        ("alice", "s1"), ("alice", "s4"), ("bob", "s1")]
    assert Entity.objects.get(pk=sarah_world.alex.pk).deleted_at is None
    assert Memory.objects.filter(user_id="bob", session_id="s1").exists()


def test_forget_memory_ids_and_by_filter(sarah_world):
    hard_delete(user_id="alice", criteria=DeleteCriteria(memory_ids=[sarah_world.lunch.pk]), actor="alice")
    assert not Memory.objects.filter(pk=sarah_world.lunch.pk).exists()
    criteria = DeleteCriteria(types=["fact"])
    assert deletion_counts(user_id="alice", criteria=criteria)["memories"] == 2
    hard_delete(user_id="alice", criteria=criteria, actor="alice")
    assert sorted(Memory.objects.filter(user_id="alice").values_list("type", flat=True)) == ["preference"] * 2
    assert Memory.objects.filter(user_id="bob").count() == 1


def test_types_and_before_narrow_a_session(sarah_world):
    old = factories.memory(content="dentist appointment", type="event", session_id="s3")
    Memory.objects.filter(pk=old.pk).update(created_at="2020-01-01T00:00Z")
    from datetime import datetime, timezone
    criteria = DeleteCriteria(source_session=["s3"], types=["event"], before=datetime(2021, 1, 1, tzinfo=timezone.utc))
    assert hard_delete(user_id="alice", criteria=criteria, actor="alice")["counts"]["memories"] == 1
    assert not Memory.objects.filter(pk=old.pk).exists()
    assert Memory.objects.filter(user_id="alice", session_id="s3").count() == 2


def test_other_users_ids_are_unknown_and_nothing_is_written(sarah_world):
    with pytest.raises(UnknownTargetError):
        hard_delete(user_id="alice", criteria=DeleteCriteria(entity_refs=[sarah_world.bobs_sarah.public_id]),
                    actor="alice")
    with pytest.raises(UnknownTargetError):
        deletion_counts(user_id="alice", criteria=DeleteCriteria(memory_ids=[sarah_world.bobs_memory.pk]))
    assert Memory.objects.filter(user_id="bob").count() == 1
    assert not AuditEvent.objects.filter(action="hard_delete").exists()


@pytest.mark.parametrize("criteria", [
    DeleteCriteria(),
    DeleteCriteria(entity_refs=["ent_x"], types=["event"]),
])
def test_bad_criteria_are_refused(db, criteria):
    with pytest.raises(DeleteRequestError):
        deletion_counts(user_id="alice", criteria=criteria)


def test_an_error_midway_deletes_nothing(sarah_world):
    with pytest.raises(DataError):
        hard_delete(user_id="alice", criteria=DeleteCriteria(entity_refs=[sarah_world.sarah.public_id]),
                    actor="x" * 500)
    assert Memory.objects.filter(user_id="alice").count() == 5
    assert Entity.objects.get(pk=sarah_world.sarah.pk).canonical_name == "Sarah Chen"
    assert Alias.objects.filter(entity=sarah_world.sarah).count() == 4
    assert UserProfile.objects.get(user_id="alice").favorites["colleague"] == "Sarah"
