"""Browser tests: Playwright (sync API) driving Debian's Chromium against pytest-django's live server.

Fixtures: `browser` (one Chromium per module), `page` (a fresh 1280×800 tab that fails its test on a
Content-Security-Policy violation), `demo` (the demo data set,
semantic embedding off so no model loads) and `demo_page` (a tab logged in as demo/demo).
`screenshot(page, name)` saves <name>.png under $RECALL_SCREENSHOT_DIR (default var/screenshots;
`make screenshots` refreshes the README's docs/screenshots/).
"""
import os
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from console.demo import load_demo_data

# Playwright's sync API runs an event loop in this thread; Django's ORM must still be usable here.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
VIEWPORT = {"width": 1280, "height": 800}
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = Path(os.environ.get("RECALL_SCREENSHOT_DIR", ROOT / "var" / "screenshots"))


@pytest.fixture(scope="module")
def browser():
    """One Chromium per test module (closed before the next module may start its own Playwright)."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium package (make browser)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    """A fresh tab; the test fails if the page broke the Content-Security-Policy (an inline script or style)."""
    context = browser.new_context(viewport=VIEWPORT)
    tab = context.new_page()
    tab.set_default_timeout(10_000)
    refused = []
    tab.on("console", lambda message: refused.append(message.text) if "Content Security Policy" in message.text
           else None)
    yield tab
    context.close()
    assert not refused, refused


@pytest.fixture
def demo(transactional_db, recall_config):
    recall_config({"memory_semantic": {"enabled": False}})
    load_demo_data()


@pytest.fixture
def demo_page(page, live_server, demo):
    log_in(page, live_server.url, "demo", "demo")
    return page


def log_in(page, base_url: str, username: str, password: str) -> None:
    page.goto(f"{base_url}/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button[type=submit]")
    page.wait_for_url(f"{base_url}/")


def screenshot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))
