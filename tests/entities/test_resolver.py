"""Entity resolution: exact → normalized → alias → partial → fuzzy, ambiguity, role phrases."""
from entities.models import Entity
from entities.names import normalize_name
from entities.resolver import resolve_mention, resolve_or_create
from entities.services import alias_add, self_entity
from tests import factories


def test_normalize_name_handles_case_punctuation_and_roles():
    assert normalize_name("Sarah C.") == "sarah c"
    assert normalize_name("My Boss") == "my manager"
    assert normalize_name("my manager") == "my manager"
    assert normalize_name("Mom") == "my mother"
    assert normalize_name("the client") == "my client"
    assert normalize_name("The Boss") == "my manager"
    assert normalize_name("the manager") == "the manager"  # a shop's, as likely as the user's


def test_exact_normalized_and_alias(db):
    sarah = factories.person(name="Sarah Chen")
    alias_add(entity=sarah, alias="my college roommate")
    assert resolve_mention("alice", "Sarah Chen").method == "exact"
    assert resolve_mention("alice", "sarah  chen!").method == "normalized"
    found = resolve_mention("alice", "My college roommate")
    assert (found.entity, found.method) == (sarah, "alias")


def test_first_name_and_title_surname_resolve_to_the_full_name(db):
    sarah = factories.person(name="Sarah Chen")
    assert resolve_mention("alice", "Sarah").entity == sarah
    assert resolve_mention("alice", "Dr. Chen").entity == sarah


def test_first_names_match_with_or_without_accents(db):
    zoe = factories.person(name="Zoë Müller")
    jose = factories.person(name="Jose Garcia")
    assert resolve_mention("alice", "Zoe").entity == zoe
    assert resolve_mention("alice", "Zoë").entity == zoe
    assert resolve_mention("alice", "Dr. Muller").entity == zoe
    assert resolve_mention("alice", "José").entity == jose


def test_role_phrases_share_one_alias(db):
    sarah = factories.person(name="Sarah Chen")
    alias_add(entity=sarah, alias="my manager", origin="role")
    assert resolve_mention("alice", "my boss").entity == sarah
    assert resolve_mention("alice", "My Manager").entity == sarah


def test_fuzzy_match_on_a_typo(db):
    sarah = factories.person(name="Sarah Chen")
    found = resolve_mention("alice", "Sarah Chenn")
    assert (found.entity, found.method) == (sarah, "fuzzy")


def test_two_people_with_the_same_first_name_are_ambiguous(db):
    factories.person(name="Sarah Chen")
    factories.person(name="Sarah Miller")
    found = resolve_mention("alice", "Sarah")
    assert found.method == "ambiguous" and found.entity is None
    assert len(found.candidates) == 2


def test_resolve_or_create_adds_new_name_forms_as_aliases(db):
    first = resolve_or_create(user_id="alice", mention="Sarah Chen")
    assert first.method == "new"
    again = resolve_or_create(user_id="alice", mention="sarah")
    assert again.entity == first.entity
    assert {a.normalized for a in first.entity.aliases.all()} == {"sarah chen", "sarah"}
    assert Entity.objects.filter(user_id="alice", kind="person").count() == 1


def test_resolution_never_crosses_users(db):
    factories.person(user_id="bob", name="Sarah Chen")
    assert resolve_mention("alice", "Sarah Chen").entity is None


def test_tombstoned_entities_do_not_resolve(db):
    from django.utils import timezone

    sarah = factories.person(name="Sarah Chen")
    Entity.objects.filter(pk=sarah.pk).update(deleted_at=timezone.now(), canonical_name="", normalized_name="")
    sarah.aliases.all().delete()
    assert resolve_mention("alice", "Sarah").entity is None


def test_one_self_entity_per_user(db):
    assert self_entity("alice") == self_entity("alice")
    assert self_entity("alice") != self_entity("bob")


def test_a_form_already_known_as_an_alias_is_not_added_again(db):
    sarah = factories.person(name="Sarah Chen")
    alias_add(entity=sarah, alias="Sally")
    known = resolve_or_create(user_id="alice", mention="Sally")
    assert (known.entity, known.method, known.known_form) == (sarah, "alias", True)
    alias_add(entity=sarah, alias="Chen")
    variant = resolve_or_create(user_id="alice", mention="Dr. Chen")  # matched through the alias "chen"
    assert (variant.entity, variant.method, variant.known_form) == (sarah, "alias", False)
    assert sorted(sarah.aliases.values_list("normalized", flat=True)) == ["chen", "dr chen", "sally", "sarah chen"]


def test_mentions_of_one_message_are_recorded_in_one_statement(db):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from entities.models import EntityMention
    from entities.services import mentions_record
    from tests.pipeline.conftest import MONDAY

    sarah, tom = factories.person(name="Sarah Chen"), factories.person(name="Tom")
    with CaptureQueriesContext(connection) as queries:
        mentions_record(entities=[sarah, tom], session_id="s1", at=MONDAY, source_message_id="m1")
    assert len(queries) == 1
    rows = EntityMention.objects.filter(user_id="alice").values_list("entity_id", "session_id", "mentioned_at",
                                                                      "source_message_id")
    assert sorted(rows) == sorted([(sarah.pk, "s1", MONDAY, "m1"), (tom.pk, "s1", MONDAY, "m1")])
    assert set(Entity.objects.filter(pk__in=[sarah.pk, tom.pk]).values_list("last_mentioned_at", flat=True)) == {MONDAY}
    mentions_record(entities=[], session_id="s1", at=MONDAY)  # nothing to record
    assert EntityMention.objects.count() == 2


def test_relation_upsert_adds_one_active_edge_and_only_raises_its_confidence(db):
    from entities.models import Relation
    from entities.services import relation_upsert

    alex, sarah = factories.person(name="Alex"), factories.person(name="Sarah Chen")
    first = relation_upsert(subject=alex, predicate="partner_of", object=sarah, confidence=0.7, session_id="s1")
    assert Relation.objects.get() == first and first.status == "active" and first.user_id == "alice"
    stronger = relation_upsert(subject=alex, predicate="partner_of", object=sarah, confidence=0.9)
    weaker = relation_upsert(subject=alex, predicate="partner_of", object=sarah, confidence=0.5)
    assert stronger.pk == weaker.pk == first.pk
    assert Relation.objects.get().confidence == 0.9 and Relation.objects.get().session_id == "s1"
    Relation.objects.filter(pk=first.pk).update(status="superseded")
    again = relation_upsert(subject=alex, predicate="partner_of", object=sarah)
    assert again.pk != first.pk and Relation.objects.count() == 2


def test_question_words_and_sentence_starters_never_resolve_nor_become_entities(db):
    good = factories.person(name="Good Vibes Studio", kind="org")
    what = factories.person(name="Whatley")
    for mention in ("Good", "What", "Hey", "Thanks", "That's", "Sounds good", "Wow"):
        assert resolve_mention("alice", mention).entity is None, mention
        assert resolve_or_create(user_id="alice", mention=mention).entity is None, mention
    assert set(Entity.objects.filter(user_id="alice")) == {good, what}


def test_fuzzy_matching_never_takes_a_full_name_that_differs_in_a_token(db):
    factories.person(name="Person 1 Test")
    assert resolve_mention("alice", "Person 2 Test").method == "unresolved"
    jon = factories.person(name="Jon Smithson")
    assert resolve_mention("alice", "Jon Smitson").entity == jon      # a typo still matches
