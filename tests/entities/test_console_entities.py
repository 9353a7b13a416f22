"""Console pages for entities: list, entity page, aliases, merge suggestions, merging, contacts import."""
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from audit.models import AuditEvent
from entities.models import Alias, Entity, EntityReview
from entities.services import mentions_record
from tests import factories

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "contacts"


@pytest.fixture
def sarahs(db):
    sarah = factories.person(name="Sarah Chen")
    sarah_c = factories.person(name="Sarah C.")
    alex = factories.person(name="Alex")
    acme = factories.person(name="Acme Corp", kind="org")
    factories.relation(alex, "partner_of", sarah)
    factories.relation(sarah, "works_at", acme)
    factories.memory(content="Lunch with Sarah on Thursday", type="event", entities=[sarah])
    factories.memory(content="Sarah C. recommended a dentist", entities=[sarah_c])
    mentions_record(entities=[sarah], session_id="s1")
    return sarah, sarah_c


def test_login_is_required(client, sarahs):
    for url in ("/entities/", f"/entities/{sarahs[0].public_id}/", "/entities/merge/", "/entities/import/"):
        assert client.get(url).status_code == 302


def test_entity_list_shows_counts_and_searches(alice_client, sarahs):
    page = alice_client.get("/entities/").content.decode()
    assert "Sarah Chen" in page and "Acme Corp" in page
    searched = alice_client.get("/entities/", {"q": "acme"}).content.decode()
    assert "Acme Corp" in searched and "Sarah Chen" not in searched
    nobody = alice_client.get("/entities/", {"q": "zzz"}).content.decode()
    assert "Nobody matches" in nobody


def test_entity_list_is_per_user(bob_client, sarahs):
    page = bob_client.get("/entities/").content.decode()
    assert "Sarah Chen" not in page and "No entities yet" in page


def test_entity_page_shows_aliases_memories_and_two_hop_graph(alice_client, sarahs):
    sarah, _ = sarahs
    page = alice_client.get(f"/entities/{sarah.public_id}/").content.decode()
    assert "Lunch with Sarah on Thursday" in page
    assert "partner_of" in page and "works_at" in page
    assert "<svg" in page and "Acme Corp" in page


def test_another_users_entity_is_a_404(bob_client, sarahs):
    sarah, sarah_c = sarahs
    assert bob_client.get(f"/entities/{sarah.public_id}/").status_code == 404
    assert bob_client.post(f"/entities/{sarah.public_id}/aliases/add/", {"alias": "x"}).status_code == 404
    assert bob_client.post(f"/entities/{sarah.public_id}/aliases/remove/", {"alias": "Sarah Chen"}).status_code == 404
    merged = bob_client.post("/entities/merge/do/", {"left": sarah.public_id, "right": sarah_c.public_id,
                                                     "winner": sarah.public_id, "confirmed": "on"})
    assert merged.status_code == 404
    assert bob_client.post("/entities/merge/dismiss/", {"left": sarah.public_id,
                                                        "right": sarah_c.public_id}).status_code == 404
    assert Entity.objects.filter(pk__in=[sarah.pk, sarah_c.pk]).count() == 2
    assert "Keep Sarah" not in bob_client.get("/entities/merge/").content.decode()


def test_add_and_remove_an_alias(alice_client, sarahs):
    sarah, _ = sarahs
    added = alice_client.post(f"/entities/{sarah.public_id}/aliases/add/", {"alias": "Sally"}, follow=True)
    assert "Added the alias “Sally”" in added.content.decode()
    assert Alias.objects.filter(entity=sarah, normalized="sally", origin="manual").exists()
    removed = alice_client.post(f"/entities/{sarah.public_id}/aliases/remove/", {"alias": "Sally"}, follow=True)
    assert "Removed the alias" in removed.content.decode()
    assert not Alias.objects.filter(entity=sarah, normalized="sally").exists()


def test_bad_alias_input_is_a_form_error(alice_client, sarahs):
    sarah, _ = sarahs
    empty = alice_client.post(f"/entities/{sarah.public_id}/aliases/add/", {"alias": "?!"})
    assert empty.status_code == 400 and "at least one letter" in empty.content.decode()
    unknown = alice_client.post(f"/entities/{sarah.public_id}/aliases/remove/", {"alias": "Nobody"})
    assert unknown.status_code == 400 and "no such alias" in unknown.content.decode()


def test_merge_suggestions_show_pairs_side_by_side(alice_client, sarahs):
    page = alice_client.get("/entities/merge/").content.decode()
    assert "Keep Sarah Chen" in page and "Keep Sarah C." in page and "Different people" in page


def test_merge_without_htmx_asks_for_confirmation_then_merges(alice_client, sarahs):
    sarah, sarah_c = sarahs
    pair = {"left": sarah.public_id, "right": sarah_c.public_id, "winner": sarah.public_id}
    confirm = alice_client.post("/entities/merge/do/", pair)
    assert confirm.status_code == 200 and "Confirm merge" in confirm.content.decode()
    assert Entity.objects.filter(pk=sarah_c.pk).exists()
    done = alice_client.post("/entities/merge/do/", {**pair, "confirmed": "on"}, follow=True)
    assert "Merged “Sarah C.” into “Sarah Chen”" in done.content.decode()
    assert not Entity.objects.filter(pk=sarah_c.pk).exists()
    assert sarah.memories.count() == 2
    assert AuditEvent.objects.get(action="entity_merge").actor == "alice"


def test_merge_with_htmx_answers_with_the_pair_replaced(alice_client, sarahs):
    sarah, sarah_c = sarahs
    response = alice_client.post("/entities/merge/do/", {"left": sarah.public_id, "right": sarah_c.public_id,
                                                         "winner": sarah_c.public_id, "confirmed": "on"},
                                 HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 200 and f'id="pair-{sarah.public_id}-{sarah_c.public_id}"' in body
    assert "Merged “Sarah Chen” into “Sarah C.”" in body and "<html" not in body
    assert not Entity.objects.filter(pk=sarah.pk).exists()


def test_a_winner_outside_the_pair_is_refused(alice_client, sarahs):
    sarah, sarah_c = sarahs
    alex = Entity.objects.get(canonical_name="Alex")
    response = alice_client.post("/entities/merge/do/", {"left": sarah.public_id, "right": sarah_c.public_id,
                                                         "winner": alex.public_id, "confirmed": "on"}, follow=True)
    assert "Choose one of the two" in response.content.decode()
    assert Entity.objects.filter(user_id="alice").count() == 4


def test_different_people_hides_the_pair(alice_client, sarahs):
    sarah, sarah_c = sarahs
    alice_client.post("/entities/merge/dismiss/", {"left": sarah.public_id, "right": sarah_c.public_id})
    assert "Keep Sarah Chen" not in alice_client.get("/entities/merge/").content.decode()
    assert EntityReview.objects.get().resolved_at is not None


def test_every_post_needs_a_csrf_token(alice_csrf_client, sarahs):
    client = alice_csrf_client
    sarah, sarah_c = sarahs
    posts = [(f"/entities/{sarah.public_id}/aliases/add/", {"alias": "Sally"}),
             (f"/entities/{sarah.public_id}/aliases/remove/", {"alias": "Sarah Chen"}),
             ("/entities/merge/do/", {"left": sarah.public_id, "right": sarah_c.public_id,
                                      "winner": sarah.public_id, "confirmed": "on"}),
             ("/entities/merge/dismiss/", {"left": sarah.public_id, "right": sarah_c.public_id}),
             ("/entities/import/", {})]
    for url, data in posts:
        assert client.post(url, data).status_code == 403, url
    assert Entity.objects.filter(user_id="alice").count() == 4 and not Alias.objects.filter(normalized="sally")


def test_contacts_import_page_shows_the_summary(alice_client, db):
    assert "Contacts export" in alice_client.get("/entities/import/").content.decode()
    upload = SimpleUploadedFile("people.vcf", (FIXTURES / "people.vcf").read_bytes())
    page = alice_client.post("/entities/import/", {"file": upload, "self_card": "Mark Jensen"}).content.decode()
    assert "Imported 12 cards" in page and "Skipped and not stored" in page
    assert Entity.objects.filter(user_id="alice", canonical_name="Sarah Chen").exists()


def test_contacts_import_page_shows_a_malformed_file_as_a_form_error(alice_client, bob_client, db):
    upload = SimpleUploadedFile("malformed.vcf", (FIXTURES / "malformed.vcf").read_bytes())
    response = alice_client.post("/entities/import/", {"file": upload})
    assert response.status_code == 400
    assert "Line 16 in card 3" in response.content.decode() and "Nothing was imported" in response.content.decode()
    assert bob_client.post("/entities/import/", {}).status_code == 400
    assert not Entity.objects.exists()


def test_imports_land_in_the_acting_users_graph_only(bob_client, db):
    upload = SimpleUploadedFile("people.vcf", (FIXTURES / "people.vcf").read_bytes())
    bob_client.post("/entities/import/", {"file": upload})
    assert set(Entity.objects.values_list("user_id", flat=True)) == {"bob"}


def test_the_graph_drawing_fits_its_canvas_and_centres_the_entity(sarahs):
    from entities.graph_view import neighbourhood_drawing
    from entities.selectors import entity_neighbourhood

    sarah, _ = sarahs
    drawing = neighbourhood_drawing(entity_neighbourhood(sarah, 2))
    root = next(node for node in drawing["nodes"] if node.depth == 0)
    assert (root.label, root.x, root.y) == ("Sarah Chen", drawing["width"] / 2, drawing["height"] / 2)
    assert {node.label for node in drawing["nodes"]} == {"Sarah Chen", "Alex", "Acme Corp"}
    assert all(0 < node.x < drawing["width"] and 0 < node.y < drawing["height"] for node in drawing["nodes"])
    assert sorted(edge.label for edge in drawing["edges"]) == ["partner of", "works at"]
