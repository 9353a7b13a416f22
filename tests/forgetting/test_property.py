"""Property: over small random graphs of two users, a delete never touches the other user's rows
and leaves no relation or memory link pointing at a removed or tombstoned entity."""
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from entities.models import Alias, Entity, EntityMention, Relation
from entities.services import entity_create, mentions_record, relation_upsert
from forgetting.criteria import DeleteCriteria
from forgetting.services import hard_delete
from memories.models import Memory, MemoryEntity
from memories.services import memory_create

NAMES = ["Sarah Chen", "Alex Rivera", "Sam Okafor", "Mia Kim"]
SESSIONS = ["s1", "s2", "s3"]
INDEX = st.integers(0, 3)

GRAPH = st.fixed_dictionaries({
    "people": st.integers(1, 4),
    "relations": st.lists(st.tuples(INDEX, st.sampled_from(["partner_of", "works_with"]), INDEX), max_size=5),
    "memories": st.lists(st.tuples(st.sampled_from(SESSIONS), st.lists(INDEX, max_size=2, unique=True)),
                         max_size=6),
    "mentions": st.lists(st.tuples(INDEX, st.sampled_from(SESSIONS)), max_size=4),
})


def build(user_id: str, graph: dict) -> list[Entity]:
    people = [entity_create(user_id=user_id, name=NAMES[n]) for n in range(graph["people"])]
    pick = lambda index: people[index % len(people)]  # noqa: E731
    for subject, predicate, obj in graph["relations"]:
        if pick(subject) != pick(obj):
            relation_upsert(subject=pick(subject), predicate=predicate, object=pick(obj))
    for number, (session, linked) in enumerate(graph["memories"]):
        memory_create(user_id=user_id, session_id=session, type="fact", content=f"fact {number}",
                      entities=list({pick(index) for index in linked}))
    for index, session in graph["mentions"]:
        mentions_record(entities=[pick(index)], session_id=session)
    return people


def snapshot(user_id: str) -> dict:
    return {
        "memories": sorted(Memory.objects.filter(user_id=user_id).values_list("pk", "content", "session_id")),
        "entities": sorted(Entity.objects.filter(user_id=user_id).values_list("pk", "canonical_name", "deleted_at")),
        "relations": sorted(Relation.objects.filter(user_id=user_id).values_list("pk", "subject_id", "object_id")),
        "aliases": sorted(Alias.objects.filter(user_id=user_id).values_list("pk", "alias")),
        "mentions": sorted(EntityMention.objects.filter(user_id=user_id).values_list("pk", "session_id")),
        "links": sorted(MemoryEntity.objects.filter(user_id=user_id).values_list("memory_id", "entity_id")),
    }


def assert_graph_is_whole(user_id: str) -> None:
    tombstones = set(Entity.objects.filter(user_id=user_id, deleted_at__isnull=False).values_list("pk", flat=True))
    for subject_id, object_id in Relation.objects.filter(user_id=user_id).values_list("subject_id", "object_id"):
        assert subject_id not in tombstones, "a tombstone keeps no outgoing relations"
    for tomb in Entity.objects.filter(pk__in=tombstones):
        assert (tomb.canonical_name, tomb.normalized_name) == ("", "")
        assert Relation.objects.filter(object=tomb).exists(), "a tombstone exists only while something points at it"
    assert not MemoryEntity.objects.filter(entity_id__in=tombstones).exists()
    assert not Alias.objects.filter(entity_id__in=tombstones).exists()
    assert not EntityMention.objects.filter(entity_id__in=tombstones).exists()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(alice_graph=GRAPH, bob_graph=GRAPH, target=INDEX, by_session=st.booleans())
def test_delete_stays_inside_one_user_and_leaves_no_dangling_edges(db, alice_graph, bob_graph, target, by_session):
    with transaction.atomic():
        people = build("alice", alice_graph)
        build("bob", bob_graph)
        bobs_rows = snapshot("bob")
        forgotten = people[target % len(people)]
        criteria = (DeleteCriteria(source_session=[SESSIONS[target % 3]]) if by_session
                    else DeleteCriteria(entity_refs=[forgotten.public_id]))
        hard_delete(user_id="alice", criteria=criteria, actor="alice")

        assert snapshot("bob") == bobs_rows
        assert_graph_is_whole("alice")
        if not by_session:
            assert not Memory.objects.filter(user_id="alice", entities=forgotten).exists()
            gone = Entity.objects.filter(pk=forgotten.pk).first()
            assert gone is None or gone.deleted_at is not None
        transaction.set_rollback(True)
