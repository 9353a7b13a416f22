"""resolve_refs: role aliases, name forms, ambiguity, unresolved logging and session mentions."""
from entities.models import Entity, EntityMention, EntityReview, UnresolvedReference
from entities.resolver import resolve_mention
from memories.models import Memory
from tests import factories


def people(user_id="alice"):
    return Entity.objects.filter(user_id=user_id, kind="person")


def test_my_boss_my_manager_and_the_first_name_are_one_person(run):
    run("Sarah is my manager")
    sarah = people().get()
    for mention in ("my boss", "my manager", "Sarah", "sarah"):
        assert resolve_mention("alice", mention).entity == sarah, mention
    trace = run("lunch with my boss Thursday", session_id="s2")
    event = Memory.objects.get(pk=trace.memory_ids[0])
    assert list(event.entities.all()) == [sarah]
    assert people().count() == 1


def test_manager_relation_points_at_the_user(run):
    run("Sarah is my manager")
    sarah = people().get()
    relation = sarah.relations_out.get()
    assert (relation.predicate, relation.object.kind) == ("manager_of", "self")


def test_a_new_manager_takes_over_the_role_alias(run):
    run("Sarah is my manager")
    run("Tom is my manager", session_id="s2")
    assert resolve_mention("alice", "my boss").entity.canonical_name == "Tom"


def test_sarah_chen_after_sarah_is_the_same_person(run):
    run("lunch with Sarah Thursday")
    run("Sarah Chen works at Acme Corp", session_id="s2")
    sarah = people().get()
    assert sarah.canonical_name == "Sarah Chen"
    assert {a.normalized for a in sarah.aliases.all()} == {"sarah", "sarah chen"}


def test_two_different_sarahs_are_not_merged_and_go_to_review(run):
    factories.person(name="Sarah Chen")
    factories.person(name="Sarah Miller")
    trace = run("lunch with Sarah Thursday")
    assert people().count() == 2
    entry = trace.entries[0]
    assert (entry.outcome, entry.reason) == ("sent_to_review", "ambiguous_entity")
    memory = Memory.objects.get(pk=trace.memory_ids[0])
    assert memory.needs_review and memory.review_reason == "ambiguous_entity"
    review = EntityReview.objects.get(user_id="alice")
    assert review.kind == "ambiguous_match"
    assert {review.entity.canonical_name, review.candidate.canonical_name} == {"Sarah Chen", "Sarah Miller"}
    assert UnresolvedReference.objects.get(user_id="alice").reason == "ambiguous"


def test_a_second_full_name_with_the_same_first_name_is_a_new_person(run):
    run("lunch with Sarah Thursday")
    run("Sarah Chen works at Acme Corp", session_id="s2")
    run("dinner with Sarah Miller on Friday", session_id="s3")
    assert sorted(people().values_list("canonical_name", flat=True)) == ["Sarah Chen", "Sarah Miller"]


def test_unresolved_role_phrases_are_logged(run):
    run("coffee with my cousin tomorrow")
    logged = UnresolvedReference.objects.get(user_id="alice")
    assert (logged.mention, logged.session_id, logged.reason) == ("my cousin", "s1", "role_unknown")


def test_the_client_is_the_users_client(run):
    from ingest.pipeline.names_in_text import role_mentions

    assert [m.text for m in role_mentions("Meeting with the client next Tuesday")] == ["my client"]
    assert role_mentions("call the client Nordwind") == []  # names the client instead
    assert role_mentions("ask the manager for a refund") == []
    run("Nordwind is my client")
    run("Meeting with the client next Tuesday", session_id="s2")
    nordwind = people().get(canonical_name="Nordwind")
    assert EntityMention.objects.filter(entity=nordwind, session_id="s2").exists()
    assert not UnresolvedReference.objects.filter(user_id="alice").exists()


def test_each_resolved_person_is_recorded_as_mentioned_in_the_session(run):
    run("Alex is Sarah's partner", session_id="s1")
    run("lunch with Sarah Thursday", session_id="s2")
    sarah = people().get(canonical_name="Sarah")
    assert sorted(EntityMention.objects.filter(entity=sarah).values_list("session_id", flat=True)) == ["s1", "s2"]
    assert sarah.relations_in.get().subject.canonical_name == "Alex"
    assert Entity.objects.get(pk=sarah.pk).last_mentioned_at is not None


def test_entities_never_cross_users(run):
    factories.person(user_id="bob", name="Sarah Chen")
    run("lunch with Sarah Thursday")
    assert people("alice").get().canonical_name == "Sarah"
    assert people("bob").get().canonical_name == "Sarah Chen"
    assert not EntityMention.objects.filter(user_id="bob").exists()
