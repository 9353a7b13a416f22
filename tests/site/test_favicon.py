"""The favicon: an SVG in static/, linked from every page, and /favicon.ico for browsers that ask for it."""
from django.contrib.staticfiles import finders
from django.urls import reverse


def test_favicon_ico_redirects_to_the_svg(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"] == "/static/favicon.svg"


def test_favicon_svg_is_served(client):
    assert finders.find("favicon.svg")
    response = client.get("/static/favicon.svg")
    assert response.status_code == 200
    assert b"<svg" in b"".join(response.streaming_content if response.streaming else [response.content])


def test_pages_link_the_favicon(client, db):
    page = client.get(reverse("login")).content.decode()
    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in page
