"""File and confirm a deletion request and see its audit entry; view metrics with charts drawn."""
from playwright.sync_api import expect

from audit.models import AuditEvent
from entities.models import Entity
from memories.models import Memory
from tests.browser.conftest import screenshot


def test_forget_a_person_with_dry_run_and_audit_entry(demo_page, live_server):
    page = demo_page
    sarah = Entity.objects.get(user_id="default", canonical_name="Sarah Chen")
    page.get_by_role("navigation", name="Console").get_by_role("link", name="Forget").click()
    page.get_by_label("Everything about a person or thing").check()
    page.get_by_label("Person or thing", exact=True).select_option(sarah.public_id)
    page.get_by_label("Reason").select_option("correction")
    screenshot(page, "forget")
    page.get_by_role("button", name="Preview what would be deleted").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Forget everything about Sarah Chen")
    expect(page.locator("#dry-run-counts")).to_contain_text("Memories")
    expect(page.locator("#dry-run-memories")).to_contain_text("Sarah")
    assert Memory.objects.filter(entities=sarah).exists()  # the dry run deleted nothing
    screenshot(page, "forget_preview")

    page.get_by_role("button", name="Delete for good").click()
    event = AuditEvent.objects.get(action="hard_delete")
    expect(page).to_have_url(f"{live_server.url}/audit/{event.pk}/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Hard delete")
    expect(page.locator("main")).to_contain_text(sarah.public_id)
    expect(page.locator("#event-counts")).to_contain_text("Memories")
    assert event.reason == "correction"
    assert not Memory.objects.filter(user_id="default", content__icontains="Sarah").exists()
    screenshot(page, "audit_event")

    page.get_by_role("navigation", name="Console").get_by_role("link", name="Audit log").click()
    expect(page.locator(".audit-table")).to_contain_text("Hard delete")
    screenshot(page, "audit_log")


def test_metrics_page_draws_charts(demo_page):
    page = demo_page
    page.get_by_role("navigation", name="Console").get_by_role("link", name="Metrics").click()
    expect(page.locator("svg.chart")).to_have_count(6)
    chart = page.locator("#metric-entities_created svg.chart")
    expect(chart.locator("polyline.series")).to_have_count(1)
    box = chart.bounding_box()
    assert box["width"] > 300 and box["height"] > 80  # drawn at a readable size
    screenshot(page, "metrics")


def test_browse_search_and_profile_pages(demo_page):
    page = demo_page
    nav = page.get_by_role("navigation", name="Console")
    nav.get_by_role("link", name="Memories").click()
    expect(page.locator(".memory-table tbody tr")).to_have_count(12)
    screenshot(page, "memories")
    page.get_by_label("Search").fill("Sarah lunch")
    page.get_by_role("button", name="Apply").click()
    expect(page.locator(".hit-list")).to_contain_text("Lunch with Sarah")
    expect(page.locator(".hit-why").first).to_contain_text("shares words with the question")
    explanation = page.locator(".hit-explanation").first
    expect(explanation).to_be_hidden()  # the arithmetic waits behind "Details"
    page.locator(".hit-details summary").first.click()
    expect(explanation).to_contain_text("score")
    screenshot(page, "search")
    page.locator(".hit-content").first.click()
    expect(page.get_by_role("heading", name="History")).to_be_visible()
    screenshot(page, "memory_detail")
    nav.get_by_role("link", name="Profile").click()
    page.get_by_label("Favorites").fill('{"coffee": "flat white"')
    page.get_by_role("button", name="Save profile").click()
    expect(page.locator(".field-error")).to_contain_text("not valid JSON")
    page.get_by_label("Favorites").fill('{"coffee": "flat white"}')
    page.get_by_label("Name", exact=True).fill("Sam")
    page.get_by_role("button", name="Save profile").click()
    expect(page.get_by_role("status")).to_contain_text("Profile saved.")
    screenshot(page, "profile")
