"""Entity resolution: exact → normalized → alias → partial → fuzzy, ambiguity, role phrases."""
from entities.models import Entity
from entities.names import normalize_name
from entities.services import alias_add, resolve_mention, resolve_or_create, self_entity
from tests import factories


def test_normalize_name_handles_case_punctuation_and_roles():
    assert normalize_name("Sarah C.") == "sarah c"
    assert normalize_name("My Boss") == "my manager"
    assert normalize_name("my manager") == "my manager"
    assert normalize_name("Mom") == "my mother"


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
