"""The entity page: relations added and removed by hand (CSRF-protected, audited, per user); a readable graph."""
import pytest

from audit.models import AuditEvent
from entities.graph_view import NAME_FONT, PREDICATE_FONT, neighbourhood_drawing
from entities.models import Relation
from entities.selectors import entity_neighbourhood
from tests import factories


@pytest.fixture
def people(alice):
    return factories.person("alice", "Sarah Chen"), factories.person("alice", "Alex")


def test_add_a_relation_from_the_entity_page(alice_client, people):
    sarah, alex = people
    page = alice_client.get(f"/entities/{sarah.public_id}/").content.decode()
    assert f'action="/entities/{sarah.public_id}/relations/add/"' in page and 'list="known-predicates"' in page
    response = alice_client.post(f"/entities/{sarah.public_id}/relations/add/",
                                 {"predicate": "Partner of", "direction": "in", "other": alex.public_id}, follow=True)
    assert "Added the relation Alex partner_of Sarah Chen." in response.content.decode()
    relation = Relation.objects.get(user_id="alice")
    assert (relation.subject, relation.predicate, relation.object) == (alex, "partner_of", sarah)
    event = AuditEvent.objects.get(action="relation_create")
    assert event.target_ids == {"relation": relation.pk, "subject": alex.public_id, "object": sarah.public_id}


def test_remove_a_relation_from_the_entity_page(alice_client, people):
    sarah, alex = people
    relation = factories.relation(alex, "partner_of", sarah)
    page = alice_client.get(f"/entities/{sarah.public_id}/").content.decode()
    remove = f"/entities/{sarah.public_id}/relations/{relation.pk}/remove/"
    assert f'action="{remove}"' in page
    response = alice_client.post(remove, follow=True)
    assert "Removed the relation Alex partner_of Sarah Chen." in response.content.decode()
    assert not Relation.objects.filter(pk=relation.pk).exists()
    assert AuditEvent.objects.get(action="relation_delete").target_ids == {"relation": relation.pk}


def test_bad_relation_input_is_a_form_error(alice_client, people):
    sarah, alex = people
    url = f"/entities/{sarah.public_id}/relations/add/"
    bad = alice_client.post(url, {"predicate": "x!", "direction": "out", "other": alex.public_id})
    assert bad.status_code == 400 and "A predicate is lowercase words" in bad.content.decode()
    missing = alice_client.post(url, {"predicate": "friend_of", "direction": "out"})
    assert missing.status_code == 400 and "Choose who or what the relation goes to." in missing.content.decode()
    assert not Relation.objects.exists() and not AuditEvent.objects.exists()


def test_relations_are_per_user(alice_client, bob_client, people):
    sarah, alex = people
    relation = factories.relation(alex, "partner_of", sarah)
    bobs_person = factories.person("bob", "Bob's friend")
    bob_relation = factories.relation(bobs_person, "friend_of", factories.person("bob", "Carol"))
    # bob cannot touch alice's entities or relations...
    assert bob_client.post(f"/entities/{sarah.public_id}/relations/add/",
                           {"predicate": "friend_of", "direction": "out", "other": bobs_person.public_id}
                           ).status_code == 404
    assert bob_client.post(f"/entities/{sarah.public_id}/relations/{relation.pk}/remove/").status_code == 404
    # ...nor link alice's entity to his, nor remove his relation through her page
    linked = alice_client.post(f"/entities/{sarah.public_id}/relations/add/",
                               {"predicate": "friend_of", "direction": "out", "other": bobs_person.public_id})
    assert linked.status_code == 400 and "Choose one of your entities." in linked.content.decode()
    assert alice_client.post(f"/entities/{sarah.public_id}/relations/{bob_relation.pk}/remove/").status_code == 404
    assert Relation.objects.count() == 2 and not AuditEvent.objects.exists()


def test_relation_posts_need_a_csrf_token(alice_csrf_client, people):
    sarah, alex = people
    relation = factories.relation(alex, "partner_of", sarah)
    assert alice_csrf_client.post(f"/entities/{sarah.public_id}/relations/add/", {
        "predicate": "friend_of", "direction": "out", "other": alex.public_id}).status_code == 403
    assert alice_csrf_client.post(f"/entities/{sarah.public_id}/relations/{relation.pk}/remove/").status_code == 403
    assert list(Relation.objects.values_list("predicate", flat=True)) == ["partner_of"]


def _crowded_graph():
    """Sarah with six neighbours, two of them with neighbours of their own: labels have to find room."""
    sarah = factories.person("alice", "Sarah Chen")
    for index, (name, predicate) in enumerate([("Alex Kim", "partner_of"), ("Acme Corporation", "works_at"),
                                               ("Berlin", "lives_in"), ("Priya Patel", "manager_of"),
                                               ("Emma", "sibling_of"), ("Tom", "friend_of")]):
        other = factories.person("alice", name)
        factories.relation(sarah, predicate, other)
        if index < 2:
            for far in ("Jo", "Lee Anne Marie"):
                factories.relation(other, "colleague_of", factories.person("alice", f"{far} {index}"))
    return sarah


def test_the_graph_keeps_predicates_off_names_at_readable_sizes(alice_client, alice):
    sarah = _crowded_graph()
    drawing = neighbourhood_drawing(entity_neighbourhood(sarah, 2))
    names = [box for node in drawing["nodes"] for box in node.boxes()]
    placed = [edge.box() for edge in drawing["edges"]]
    assert len(placed) == 10 and min(PREDICATE_FONT, NAME_FONT) >= 12
    assert not [(a, b) for a in placed for b in names if a.overlap(b)]
    assert not [(a, b) for i, a in enumerate(placed) for b in placed[i + 1:] if a.overlap(b)]
    # The box holds everything drawn, with little to spare.
    boxes = names + placed
    assert min(box.left for box in boxes) >= 0 and max(box.right for box in boxes) <= drawing["width"]
    assert min(box.top for box in boxes) >= 0 and max(box.bottom for box in boxes) <= drawing["height"]
    page = alice_client.get(f"/entities/{sarah.public_id}/").content.decode()
    assert f'width="{drawing["width"]}" height="{drawing["height"]}"' in page  # drawn at its own size
    assert 'font-size="12"' in page and 'font-size="10"' not in page
