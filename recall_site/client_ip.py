"""The client's IP address, for API throttling, login lockout and the /metrics loopback check alike.

It is the TCP peer (REMOTE_ADDR), unless the peer is one of the proxies the operator trusts
(RECALL_TRUSTED_PROXIES: IP addresses and networks, comma-separated; none by default). From a trusted
proxy, the client is the last X-Forwarded-For entry that is not itself a trusted proxy (each proxy
appends the address it saw), so a client cannot dodge a limit by sending the header itself. The entry
points (recall_site/asgi.py, recall_site/wsgi.py) put that address in REMOTE_ADDR before Django sees the
request; `client_ip` works it out again for any other way in (the answer is the same).
"""
import ipaddress

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def trusted_networks(text: str) -> list[Network]:
    """RECALL_TRUSTED_PROXIES parsed: "10.0.0.1, 192.168.0.0/16, ::1" (empty: none)."""
    networks = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            raise ImproperlyConfigured(f"RECALL_TRUSTED_PROXIES: {item!r} is not an IP address or network") from None
    return networks


def client_ip(request) -> str:
    return forwarded_client(request.META.get("REMOTE_ADDR") or "", request.META.get("HTTP_X_FORWARDED_FOR", ""))


def forwarded_client(peer: str, forwarded_for: str) -> str:
    """The client of a request that came from `peer` with this X-Forwarded-For header."""
    networks = settings.RECALL_TRUSTED_PROXIES
    client = peer
    for entry in reversed(forwarded_for.split(",")):
        if not _trusted(client, networks):
            break
        address = _address(entry.strip())
        if address is None:  # what the proxy forwarded is no address: the proxy is the client
            break
        client = address
    return client


def _trusted(address: str, networks: list[Network]) -> bool:
    if not networks:
        return False
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in networks)


def _address(entry: str) -> str | None:
    """An X-Forwarded-For entry as an address: "203.0.113.9", "203.0.113.9:4711", "[2001:db8::1]:80"."""
    if entry.startswith("[") and "]" in entry:
        entry = entry[1:entry.index("]")]
    elif entry.count(":") == 1:
        entry = entry.split(":", 1)[0]
    try:
        return str(ipaddress.ip_address(entry))
    except ValueError:
        return None
