"""In a real browser: import contacts, merge two entities from the merge-suggestions page, view an entity.

Playwright (sync API) drives Debian's Chromium against pytest-django's live server.
Saves docs/screenshots/entities.png, entity_merge.png and entity.png (1280×800).
"""
import os
from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright

from audit.models import AuditEvent
from entities.models import Entity
from entities.services import entity_create, relation_upsert
from memories.demo import load_demo_data
from memories.services import memory_create

# Playwright's sync API runs an event loop in this thread; Django's ORM must still be usable here.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "docs" / "screenshots"
PEOPLE_VCF = ROOT / "tests" / "fixtures" / "contacts" / "people.vcf"


@pytest.fixture
def tab(transactional_db, recall_config):
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium package (make browser)")
    recall_config({"memory_semantic": {"enabled": False}})
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = chromium.new_context(viewport={"width": 1280, "height": 800})
        page = context.new_page()
        page.set_default_timeout(10_000)
        yield page
        chromium.close()


def fragmented_demo_graph():
    """The demo data plus a conversation fragment "Sarah" that shares Alex with "Sarah Chen"."""
    load_demo_data()
    sarah = entity_create(user_id="default", name="Sarah")
    alex = Entity.objects.get(user_id="default", canonical_name="Alex")
    relation_upsert(subject=alex, predicate="partner_of", object=sarah)
    memory_create(user_id="default", session_id="demo-3", type="event", content="Sarah said the move is on",
                  entities=[sarah])
    return Entity.objects.get(user_id="default", canonical_name="Sarah Chen"), sarah


def log_in(page, base_url):
    page.goto(f"{base_url}/login/")
    page.fill("#id_username", "demo")
    page.fill("#id_password", "demo")
    page.click("button[type=submit]")
    page.wait_for_url(f"{base_url}/")


def test_import_contacts_then_merge_two_entities_in_place(tab, live_server):
    page = tab
    sarah_chen, fragment = fragmented_demo_graph()
    log_in(page, live_server.url)

    page.get_by_role("navigation", name="Console").get_by_role("link", name="Entities").click()
    page.get_by_role("link", name="Import contacts").click()
    page.set_input_files("#id_file", str(PEOPLE_VCF))
    page.get_by_role("button", name="Import").click()
    expect(page.locator(".import-summary")).to_contain_text("Imported 12 cards")

    page.get_by_role("link", name="All entities").click()
    expect(page.locator(".entity-table")).to_contain_text("Sarah Chen")
    page.screenshot(path=str(SCREENSHOTS / "entities.png"))

    page.get_by_role("link", name="Merge suggestions").click()
    pair = page.locator(f"#pair-{min(sarah_chen, fragment, key=lambda e: e.pk).public_id}-"
                        f"{max(sarah_chen, fragment, key=lambda e: e.pk).public_id}")
    expect(pair).to_contain_text("Alex Kim partner_of both")
    page.screenshot(path=str(SCREENSHOTS / "entity_merge.png"))
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
    page.screenshot(path=str(SCREENSHOTS / "entity.png"))
