"""Merging fragmented people: what moves to the winner, what is dropped, what is audited."""
import pytest
from django.utils import timezone

from audit.models import AuditEvent
from entities.merge import MergeError, entity_merge
from entities.models import Alias, Entity, EntityMention, EntityReview, Relation
from entities.services import alias_add, mentions_record, self_entity
from memories.models import Memory, MemoryEntity
from tests import factories


@pytest.fixture
def pair(db):
    return factories.person(name="Sarah Chen"), factories.person(name="Sarah C.")


def merge(winner, loser, user_id="alice"):
    return entity_merge(user_id=user_id, winner=winner, loser=loser, actor="alice")


def test_aliases_are_unioned_with_origin_merge(pair):
    winner, loser = pair
    alias_add(entity=loser, alias="my college roommate", origin="role")
    merge(winner, loser)
    aliases = {a.normalized: a.origin for a in Alias.objects.filter(entity=winner)}
    assert aliases == {"sarah chen": "user_mention", "sarah c": "merge", "my college roommate": "role"}
    assert not Entity.objects.filter(pk=loser.pk).exists()


def test_memory_links_move_without_duplicates(pair):
    winner, loser = pair
    both = factories.memory(content="lunch with Sarah", entities=[winner, loser])
    only_loser = factories.memory(content="Sarah C. likes tea", entities=[(loser, "subject")])
    merge(winner, loser)
    linked = set(MemoryEntity.objects.filter(entity=winner).values_list("memory_id", flat=True))
    assert linked == {both.pk, only_loser.pk}
    assert MemoryEntity.objects.get(memory=only_loser).role == "subject"
    assert MemoryEntity.objects.filter(memory=both).count() == 1


def test_memory_subject_and_mentions_follow_the_winner(pair):
    winner, loser = pair
    fact = factories.memory(content="Sarah lives in Paris", type="fact", subject=loser, attribute="residence")
    mentions_record(entities=[loser], session_id="s9")
    merge(winner, loser)
    assert Memory.objects.get(pk=fact.pk).subject == winner
    assert list(EntityMention.objects.filter(entity=winner).values_list("session_id", flat=True)) == ["s9"]
    assert Entity.objects.get(pk=winner.pk).last_mentioned_at is not None


def test_relations_are_repointed_deduplicated_and_self_loops_dropped(pair):
    winner, loser = pair
    alex = factories.person(name="Alex")
    acme = factories.person(name="Acme Corp", kind="org")
    factories.relation(alex, "partner_of", winner, confidence=0.6)
    factories.relation(alex, "partner_of", loser, confidence=0.95)   # duplicate after merge
    factories.relation(loser, "works_at", acme)                      # moves
    factories.relation(loser, "same_as", winner)                     # becomes a self-loop
    counts = merge(winner, loser)
    edges = {(r.subject.canonical_name, r.predicate, r.object.canonical_name, r.confidence)
             for r in Relation.objects.filter(user_id="alice")}
    assert edges == {("Alex", "partner_of", "Sarah Chen", 0.95), ("Sarah Chen", "works_at", "Acme Corp", 0.9)}
    moved = (counts["relations_moved"], counts["relations_deduplicated"], counts["relations_dropped_self_loops"])
    assert moved == (1, 1, 1)


def test_reviews_about_the_pair_are_answered_others_follow_the_winner(pair):
    winner, loser = pair
    other = factories.person(name="Sarah Miller")
    EntityReview.objects.create(user_id="alice", kind="ambiguous_match", entity=winner, candidate=loser)
    EntityReview.objects.create(user_id="alice", kind="ambiguous_match", entity=other, candidate=loser)
    EntityReview.objects.create(user_id="alice", kind="drift", entity=loser)
    merge(winner, loser)
    rows = {(r.kind, r.entity.canonical_name, r.candidate and r.candidate.canonical_name)
            for r in EntityReview.objects.all()}
    assert rows == {("ambiguous_match", "Sarah Miller", "Sarah Chen"), ("drift", "Sarah Chen", None)}


def test_merge_is_audited_with_public_ids_only(pair):
    winner, loser = pair
    loser_id = loser.public_id
    merge(winner, loser)
    event = AuditEvent.objects.get(action="entity_merge")
    assert event.target_ids == {"winner": winner.public_id, "loser": loser_id}
    assert event.user_id == "alice" and event.actor == "alice"
    assert "Sarah" not in str(event.target_ids) + str(event.counts) + event.reason


def test_invalid_merges_change_nothing(pair):
    winner, loser = pair
    bobs = factories.person(user_id="bob", name="Sarah Chen")
    with pytest.raises(MergeError):
        merge(winner, winner)
    with pytest.raises(MergeError):
        merge(winner, bobs)
    with pytest.raises(MergeError):
        merge(winner, self_entity("alice"))
    loser.deleted_at = timezone.now()
    loser.save()
    with pytest.raises(MergeError):
        merge(winner, loser)
    assert Entity.objects.filter(user_id="alice").count() == 3
    assert not AuditEvent.objects.filter(action="entity_merge").exists()


def test_a_person_can_be_merged_into_the_self_entity(db):
    me = self_entity("alice")
    mark = factories.person(name="Mark Jensen")
    memory = factories.memory(content="Mark likes chess", entities=[mark])
    merge(me, mark)
    assert list(memory.entities.all()) == [me]


def test_merge_handles_every_table_that_points_at_an_entity():
    """Guard: a new foreign key to Entity must be taught to entity_merge (else CASCADE loses data)."""
    handled = {("alias", "entity"), ("entitymention", "entity"), ("relation", "subject"), ("relation", "object"),
               ("entityreview", "entity"), ("entityreview", "candidate"), ("memory", "subject"),
               ("memoryentity", "entity")}
    pointing = {(rel.related_model._meta.model_name, rel.field.name) for rel in Entity._meta.related_objects
                if not rel.many_to_many}
    assert pointing == handled
