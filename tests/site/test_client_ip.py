"""Which client address a request has (recall_site/client_ip.py): the peer, unless the peer is a trusted
proxy; then the last X-Forwarded-For entry that is not one."""
import pytest
from django.core.exceptions import ImproperlyConfigured

from recall_site.asgi import with_trusted_client
from recall_site.client_ip import forwarded_client, trusted_networks


@pytest.fixture
def trusted(settings):
    def trust(text: str):
        settings.RECALL_TRUSTED_PROXIES = trusted_networks(text)
    return trust


def test_with_no_trusted_proxy_the_header_is_ignored(trusted):
    trusted("")
    assert forwarded_client("127.0.0.1", "203.0.113.9") == "127.0.0.1"
    assert forwarded_client("10.0.0.1", "") == "10.0.0.1"


def test_from_a_trusted_proxy_the_last_untrusted_entry_is_the_client(trusted):
    trusted("127.0.0.1, 10.0.0.0/8")
    assert forwarded_client("127.0.0.1", "203.0.113.9") == "203.0.113.9"
    assert forwarded_client("127.0.0.1", "6.6.6.6, 203.0.113.9, 10.1.2.3") == "203.0.113.9"  # the client forged 6.6.6.6
    assert forwarded_client("192.0.2.1", "203.0.113.9") == "192.0.2.1"  # not a proxy we trust
    assert forwarded_client("127.0.0.1", "10.0.0.5, 10.0.0.6") == "10.0.0.5"  # all proxies: the first of them
    assert forwarded_client("127.0.0.1", "") == "127.0.0.1"
    assert forwarded_client("127.0.0.1", "203.0.113.9, not-an-address") == "127.0.0.1"
    assert forwarded_client("127.0.0.1", "203.0.113.9:4711") == "203.0.113.9"
    assert forwarded_client("127.0.0.1", "[2001:db8::1]:80") == "2001:db8::1"


def test_an_address_resolved_once_resolves_to_itself(trusted):
    trusted("127.0.0.1, 10.0.0.0/8")
    for header in ("6.6.6.6, 203.0.113.9, 10.1.2.3", "10.0.0.5, 10.0.0.6", "203.0.113.9, junk, 10.0.0.7"):
        once = forwarded_client("127.0.0.1", header)
        assert forwarded_client(once, header) == once


def test_the_asgi_router_puts_the_trusted_client_in_the_scope(trusted):
    scope = {"type": "http", "client": ("127.0.0.1", 5000), "headers": [(b"x-forwarded-for", b"203.0.113.9")]}
    trusted("")
    assert with_trusted_client(scope)["client"] == ("127.0.0.1", 5000)
    trusted("127.0.0.1")
    assert with_trusted_client(scope)["client"][0] == "203.0.113.9"


def test_a_wrong_entry_stops_start_up():
    with pytest.raises(ImproperlyConfigured, match="'10.0.0.300'"):
        trusted_networks("127.0.0.1,10.0.0.300")
