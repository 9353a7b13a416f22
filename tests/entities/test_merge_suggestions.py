"""Merge suggestions: likely duplicates by name/alias likeness plus shared relations."""
from django.utils import timezone

from entities.likeness import name_likeness, names_conflict
from entities.merge import merge_dismiss, merge_suggestions
from entities.models import EntityReview
from entities.services import alias_add, self_entity
from tests import factories


def pairs(user_id="alice"):
    return {frozenset((s.left.canonical_name, s.right.canonical_name)) for s in merge_suggestions(user_id)}


def test_name_likeness_rules():
    assert name_likeness("sarah chen", "sarah c") == 0.9
    assert name_likeness("sarah", "sarah chen") == 0.8
    assert name_likeness("dr chen", "sarah chen") == 0.8
    assert name_likeness("sarah chen", "sarah miller") == 0.0
    assert name_likeness("zoe muller", "zoë müller") == 1.0
    assert name_likeness("my manager", "my manager") == 0.0  # role phrases are not names
    assert names_conflict("sarah chen", "sarah miller")
    assert not names_conflict("jon smith", "john smith")


def test_initial_and_first_name_forms_are_suggested(db):
    factories.person(name="Sarah Chen")
    factories.person(name="Sarah C.")
    factories.person(name="Priya Patel")
    assert pairs() == {frozenset({"Sarah Chen", "Sarah C."})}
    suggestion = merge_suggestions("alice")[0]
    assert suggestion.score == 0.9 and {suggestion.left_name, suggestion.right_name} == {"Sarah Chen", "Sarah C."}


def test_alias_likeness_counts(db):
    factories.person(name="Sarah Chen")
    college = factories.person(name="College Friend")
    alias_add(entity=college, alias="Sarah C")
    assert frozenset({"Sarah Chen", "College Friend"}) in pairs()


def test_clearly_different_people_are_not_suggested(db):
    factories.person(name="Sarah Chen")
    factories.person(name="Sarah Miller")
    alex = factories.person(name="Alex Chen")
    alex_c = factories.person(name="Alex C.")
    factories.relation(alex, "sibling_of", alex_c)  # an edge between them: two people
    factories.person(name="Acme", kind="org")
    factories.person(name="Acme", kind="place")         # different kinds
    assert pairs() == set()


def test_shared_relations_raise_the_score(db):
    sarah, sarah_c = factories.person(name="Sarah Chen"), factories.person(name="Sarah")
    plain = merge_suggestions("alice")[0].score
    alex = factories.person(name="Alex Kim")
    acme = factories.person(name="Acme", kind="org")
    factories.relation(alex, "partner_of", sarah)
    factories.relation(alex, "partner_of", sarah_c)
    factories.relation(sarah, "works_at", acme)
    factories.relation(sarah_c, "works_at", acme)
    boosted = merge_suggestions("alice")[0]
    assert boosted.score > plain
    assert {(d, p) for d, p, _other in boosted.shared_relations} == {("in", "partner_of"), ("out", "works_at")}


def test_self_tombstones_and_other_users_are_excluded(db):
    me = self_entity("alice")
    alias_add(entity=me, alias="Sarah Chen")
    factories.person(name="Sarah Chen")
    gone = factories.person(name="Sarah C.")
    gone.deleted_at = timezone.now()
    gone.save()
    factories.person(user_id="bob", name="Sarah C")
    assert pairs() == set()
    assert pairs("bob") == set()


def test_dismissed_pairs_stop_being_suggested(db):
    sarah, sarah_c = factories.person(name="Sarah Chen"), factories.person(name="Sarah C.")
    merge_dismiss(user_id="alice", left=sarah, right=sarah_c, actor="alice")
    assert pairs() == set()


def test_open_ambiguous_reviews_are_suggested(db):
    sarah, other = factories.person(name="Sarah"), factories.person(name="Sarah Miller")
    EntityReview.objects.create(user_id="alice", kind="ambiguous_match", entity=sarah, candidate=other)
    suggestion = merge_suggestions("alice")[0]
    assert suggestion.flagged_ambiguous and {suggestion.left, suggestion.right} == {sarah, other}


def test_full_names_differing_in_a_token_conflict():
    assert names_conflict("person 1 test", "person 2 test")
    assert names_conflict("person 1 test", "person 12 test")   # "1" is no initial of "12"
    assert names_conflict("anna 2 lee", "anna lee")             # a number only one of them has
    assert names_conflict("mary ann smith", "mary jo smith")
    assert not names_conflict("sarah j chen", "sarah jane chen")
    assert not names_conflict("mary ann smith", "mary smith")
    assert not names_conflict("person 1 test", "person 1 test")
    assert name_likeness("person 1 test", "person 2 test") == 0.0
