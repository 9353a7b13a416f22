"""Log in, then approve and reject demo items in the review queue — in place, without a reload."""
from playwright.sync_api import expect

from audit.models import AuditEvent
from memories.models import Memory
from tests.browser.conftest import log_in, screenshot


def test_login_page_and_wrong_password(page, live_server, demo):
    page.goto(f"{live_server.url}/")
    expect(page).to_have_url(f"{live_server.url}/login/?next=/")
    screenshot(page, "login")
    page.fill("#id_username", "demo")
    page.fill("#id_password", "wrong")
    page.click("button[type=submit]")
    expect(page.get_by_role("alert")).to_contain_text("didn't match")
    log_in(page, live_server.url, "demo", "demo")
    expect(page.get_by_role("heading", name="Dashboard")).to_be_visible()
    screenshot(page, "dashboard")


def test_approve_and_reject_in_place(demo_page, live_server):
    page = demo_page
    page.get_by_role("navigation", name="Console").get_by_role("link", name="Review").click()
    expect(page.locator("#review-badge")).to_have_text("5")
    # three memories, Alex's drift question and which Tom the cello memory is about
    expect(page.locator(".review-item")).to_have_count(5)
    screenshot(page, "review")
    page.evaluate("window.stillTheSamePage = true")
    coffee = Memory.objects.get(content="Likes flat white coffee")
    monday = Memory.objects.get(content__startswith="Seems to prefer no meetings")

    page.locator(f"#memory-{coffee.pk}").get_by_role("button", name="Approve").click()
    expect(page.locator(f"#memory-{coffee.pk}")).to_contain_text("Approved")

    page.once("dialog", lambda dialog: dialog.accept())
    page.locator(f"#memory-{monday.pk}").get_by_role("button", name="Reject").click()
    expect(page.locator(f"#memory-{monday.pk}")).to_contain_text("deleted for good")

    drift = page.locator(".entity-review", has_text="Alex seems to have changed")
    expect(drift).to_contain_text("Alex seems to have changed")
    drift.get_by_role("button", name="Nothing changed").click()

    assert page.evaluate("window.stillTheSamePage") is True  # no full page load happened
    expect(page.locator("#review-badge")).to_have_text("2")  # the Tom question and its memory
    coffee.refresh_from_db()
    assert not coffee.needs_review and coffee.reviewed_at is not None
    assert not Memory.objects.filter(pk=monday.pk).exists()
    assert {"memory_approve", "review_reject"} <= set(AuditEvent.objects.values_list("action", flat=True))


def test_edit_inline_then_bulk_approve(demo_page):
    page = demo_page
    page.goto(page.url + "review/")
    coffee = Memory.objects.get(content="Likes flat white coffee")
    item = page.locator(f"#memory-{coffee.pk}")
    item.get_by_role("link", name="Edit").click()
    item.get_by_label("Memory", exact=True).fill("Likes oat flat whites")
    item.get_by_role("button", name="Save", exact=True).click()
    expect(item).to_contain_text("Likes oat flat whites")
    page.get_by_label("Select all").check()
    expect(page.locator("#selected-count")).to_have_text("3 selected")
    page.get_by_role("button", name="Approve selected").click()
    expect(page.locator("#review-list")).to_contain_text("3 memories approved.")
    assert not Memory.objects.filter(user_id="default", needs_review=True).exists()
