"""entities.graph: the recursive graph walk (hops, both directions, cycles, tombstones, users)."""
from django.utils import timezone

from entities.graph import graph_neighbourhood, graph_walk
from entities.models import Entity, Relation
from tests import factories


def names(reached):
    by_id = Entity.objects.in_bulk([r.entity_id for r in reached])
    return {by_id[r.entity_id].canonical_name: r.depth for r in reached}


def test_walk_follows_relations_both_ways_up_to_the_hop_limit(db):
    sarah, alex, tom, acme = (factories.person("alice", n) for n in ("Sarah Chen", "Alex", "Tom", "Acme"))
    factories.relation(alex, "partner_of", sarah)
    factories.relation(alex, "works_at", acme)
    factories.relation(tom, "manager_of", alex)
    assert names(graph_walk("alice", [sarah.pk], 0)) == {"Sarah Chen": 0}
    assert names(graph_walk("alice", [sarah.pk], 1)) == {"Sarah Chen": 0, "Alex": 1}
    assert names(graph_walk("alice", [sarah.pk], 2)) == {"Sarah Chen": 0, "Alex": 1, "Acme": 2, "Tom": 2}


def test_walk_is_cycle_safe_and_keeps_the_shortest_path(db):
    a, b, c = (factories.person("alice", n) for n in ("Ann", "Ben", "Cal"))
    factories.relation(a, "friend_of", b)
    factories.relation(b, "friend_of", c)
    factories.relation(c, "friend_of", a)
    reached = graph_walk("alice", [a.pk], 3)
    assert names(reached) == {"Ann": 0, "Ben": 1, "Cal": 1}
    assert all(len(r.node_path) == len(set(r.node_path)) for r in reached)


def test_tombstoned_nodes_are_neither_entered_nor_walked_through(db):
    sarah, alex, tom = (factories.person("alice", n) for n in ("Sarah Chen", "Alex", "Tom"))
    factories.relation(alex, "partner_of", sarah)
    factories.relation(tom, "sibling_of", alex)
    Entity.objects.filter(pk=alex.pk).update(deleted_at=timezone.now())
    assert names(graph_walk("alice", [sarah.pk], 3)) == {"Sarah Chen": 0}
    assert graph_walk("alice", [alex.pk], 3) == []


def test_superseded_relations_and_other_users_graphs_are_not_walked(db):
    sarah, alex = factories.person("alice", "Sarah Chen"), factories.person("alice", "Alex")
    old = factories.relation(alex, "partner_of", sarah)
    Relation.objects.filter(pk=old.pk).update(status="superseded")
    assert names(graph_walk("alice", [sarah.pk], 2)) == {"Sarah Chen": 0}
    bobs_sarah = factories.person("bob", "Sarah Chen")
    assert graph_walk("alice", [bobs_sarah.pk], 2) == []


def test_neighbourhood_lists_relations_with_their_depth_and_readable_paths(db):
    sarah, alex, acme = (factories.person("alice", n) for n in ("Sarah Chen", "Alex", "Acme"))
    partner = factories.relation(alex, "partner_of", sarah)
    works = factories.relation(alex, "works_at", acme)
    assert graph_neighbourhood(sarah, hops=1) == [(partner, 1)]
    assert graph_neighbourhood(sarah, hops=2) == [(partner, 1), (works, 2)]
    [to_acme] = [r for r in graph_walk("alice", [sarah.pk], 2) if r.entity_id == acme.pk]
    assert to_acme.path_label == "sarah chen -partner_of-> alex -works_at-> acme"
    [to_sarah] = [r for r in graph_walk("alice", [acme.pk], 2) if r.entity_id == sarah.pk]
    assert to_sarah.path_label == "acme <-works_at- alex -partner_of-> sarah chen"
