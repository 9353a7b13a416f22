"""The console from 390 px to wide screens: the review queue never scrolls sideways and its buttons never
cover its text; below 1100 px the sidebar folds into a Menu button; the entity graph's text is readable
(>= 12 px on screen) and no predicate sits on a name."""
import pytest
from playwright.sync_api import expect

from entities.models import Entity
from tests.browser.conftest import screenshot

# Every button of a review card against every piece of its text (and each against the card's edges).
COVERED_TEXT = """() => {
  const found = [];
  const meet = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
                         && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  for (const card of document.querySelectorAll(".review-item, .bulk-bar")) {
    const box = card.getBoundingClientRect();
    const buttons = [...card.querySelectorAll("button, .btn, input[type=checkbox]")];
    const texts = [...card.querySelectorAll(
      ".review-content, .review-reason, .provenance > div, .chips > *, .check, #selected-count")];
    for (const text of texts) {
      const t = text.getBoundingClientRect();
      if (t.right > box.right + 0.5 || t.left < box.left - 0.5) found.push(`${card.id}: text outside its card`);
      for (const button of buttons) {
        if (!button.contains(text) && !text.contains(button) && meet(t, button.getBoundingClientRect()))
          found.push(`${card.id || card.className}: "${button.textContent.trim()}" covers `
                     + `"${text.textContent.trim().slice(0, 30)}"`);
      }
    }
  }
  return found;
}"""


@pytest.mark.parametrize("width", [1280, 1024, 390])
def test_review_queue_fits_the_screen_at_every_width(demo_page, live_server, width):
    page = demo_page
    page.set_viewport_size({"width": width, "height": 900 if width > 390 else 844})
    page.goto(f"{live_server.url}/review/")
    expect(page.locator(".review-item")).to_have_count(5)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert page.evaluate(COVERED_TEXT) == []
    for card in page.locator(".review-item").all():
        assert card.locator(".review-actions").bounding_box()["width"] > 0
    screenshot(page, f"review_{width}")


def test_the_sidebar_folds_into_a_menu_below_1100_px(demo_page, live_server):
    page = demo_page
    nav = page.get_by_role("navigation", name="Console")
    menu = page.get_by_role("button", name="Menu")
    expect(menu).to_be_hidden()  # 1280 px: the sidebar is open
    expect(nav).to_be_visible()
    page.set_viewport_size({"width": 1024, "height": 800})
    expect(nav).to_be_hidden()
    expect(menu).to_have_attribute("aria-expanded", "false")
    menu.click()
    expect(menu).to_have_attribute("aria-expanded", "true")
    nav.get_by_role("link", name="Review").click()
    expect(page).to_have_url(f"{live_server.url}/review/")
    expect(nav).to_be_hidden()  # a new page starts folded
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/memories/")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")  # the filter bar wraps


# Every predicate against every name and circle of the graph, in screen pixels, with each text's size on screen.
GRAPH_TEXT = """() => {
  const svg = document.querySelector("svg.graph");
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  const size = (t) => parseFloat(getComputedStyle(t).fontSize) * scale;
  const labels = [...svg.querySelectorAll(".graph-edge-label")];
  const names = [...svg.querySelectorAll(".graph-node text, .graph-node circle")];
  const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const covered = [];
  for (const label of labels)
    for (const name of names)
      if (meet(label.getBoundingClientRect(), name.getBoundingClientRect()))
        covered.push(`${label.textContent} over ${name.textContent || "a node"}`);
  return {scale, smallest: Math.min(...[...labels, ...names.filter(n => n.tagName === "text")].map(size)),
          labels: labels.length, covered};
}"""


def test_the_entity_graph_is_readable(demo_page, live_server):
    page = demo_page
    sarah = Entity.objects.get(user_id="default", canonical_name="Sarah Chen")
    page.goto(f"{live_server.url}/entities/{sarah.public_id}/")
    graph = page.evaluate(GRAPH_TEXT)
    assert graph["labels"] >= 3 and graph["covered"] == []
    assert graph["scale"] == pytest.approx(1.0) and graph["smallest"] >= 12
    screenshot(page, "entity_graph")
