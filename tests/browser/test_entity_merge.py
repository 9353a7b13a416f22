"""In a real browser: import contacts, merge two entities from the merge-suggestions page, view an entity."""
from pathlib import Path

from playwright.sync_api import expect

from audit.models import AuditEvent
from console.demo import load_demo_data
from entities.models import Entity
from entities.services import entity_create, relation_upsert
from memories.services import memory_create
from tests.browser.conftest import log_in, screenshot

PEOPLE_VCF = Path(__file__).resolve().parents[1] / "fixtures" / "contacts" / "people.vcf"


def fragmented_demo_graph():
    """The demo data plus a conversation fragment "Sarah" that shares Alex with "Sarah Chen"."""
    load_demo_data()
    sarah = entity_create(user_id="default", name="Sarah")
    alex = Entity.objects.get(user_id="default", canonical_name="Alex")
    relation_upsert(subject=alex, predicate="partner_of", object=sarah)
    memory_create(user_id="default", session_id="demo-3", type="event", content="Sarah said the move is on",
                  entities=[sarah])
    return Entity.objects.get(user_id="default", canonical_name="Sarah Chen"), sarah


def test_import_contacts_then_merge_two_entities_in_place(page, live_server, transactional_db, recall_config):
    recall_config({"memory_semantic": {"enabled": False}})
    sarah_chen, fragment = fragmented_demo_graph()
    log_in(page, live_server.url, "demo", "demo")

    page.get_by_role("navigation", name="Console").get_by_role("link", name="Entities").click()
    page.get_by_role("link", name="Import contacts").click()
    page.set_input_files("#id_file", str(PEOPLE_VCF))
    page.get_by_role("button", name="Import").click()
    expect(page.locator(".import-summary")).to_contain_text("Imported 12 cards")

    page.get_by_role("link", name="All entities").click()
    expect(page.locator(".entity-table")).to_contain_text("Sarah Chen")
    screenshot(page, "entities")

    page.get_by_role("link", name="Merge suggestions").click()
    pair = page.locator(f"#pair-{min(sarah_chen, fragment, key=lambda e: e.pk).public_id}-"
                        f"{max(sarah_chen, fragment, key=lambda e: e.pk).public_id}")
    expect(pair).to_contain_text("Alex Kim partner_of both")
    screenshot(page, "entity_merge")
    page.once("dialog", lambda dialog: dialog.accept())
    pair.get_by_role("button", name="Keep Sarah Chen").click()
    expect(page.locator(".pair-done")).to_contain_text("Merged “Sarah” into “Sarah Chen”")
    assert page.url.endswith("/entities/merge/")  # merged in place, no page load

    assert not Entity.objects.filter(pk=fragment.pk).exists()
    assert AuditEvent.objects.get(action="entity_merge").target_ids == {
        "winner": sarah_chen.public_id, "loser": fragment.public_id}

    page.goto(f"{live_server.url}/entities/{sarah_chen.public_id}/")
    expect(page.locator(".alias-list")).to_contain_text("Sally")
    expect(page.locator("main")).to_contain_text("Sarah said the move is on")
    expect(page.locator("svg.graph .graph-node")).not_to_have_count(0)
    screenshot(page, "entity")
