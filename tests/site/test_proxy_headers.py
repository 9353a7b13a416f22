"""X-Forwarded-For against a real `manage.py serve`: the client address the per-IP rate limit and the login
lockout see is the TCP peer, unless the peer is one of RECALL_TRUSTED_PROXIES (none by default).

A client on the server's own machine (loopback, where uvicorn by itself trusts the header) sends a new
forged address with every request: with no trusted proxies the forgeries change nothing, the fourth
request is over the limit and the third failed login locks the address out; with 127.0.0.1 trusted, each forged
address is a client of its own.
"""
import http.cookiejar
import re
import urllib.parse
import urllib.request

import pytest

from tests.site.live_serve import clean_up, free_port, fresh_var, start_serve, status_on_a_new_connection

# Per hour: the first ready answers once the model has loaded (15-25 s on a busy 2-core host), and at 3/minute
# a token comes back every 20 s, which let the fourth request through.
LIMITS = {"RECALL__SECURITY__API_RATE_PER_IP": "3/hour", "RECALL__SECURITY__LOGIN_FAILURE_LIMIT": "3"}


@pytest.fixture(params=["", "127.0.0.1"], ids=["no trusted proxies", "loopback trusted"])
def served(request, tmp_path):
    var, port = fresh_var(tmp_path), free_port()
    serve = start_serve(var, port, RECALL_TRUSTED_PROXIES=request.param, **LIMITS)
    try:
        yield port, bool(request.param)
    finally:
        clean_up(serve, var)


def failed_login_with_forged_address(port: int, n: int) -> int:
    """A wrong password for a new account name each time, from a new forged address (CSRF token and all)."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    url = f"http://127.0.0.1:{port}/login/"
    page = opener.open(url, timeout=30).read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    form = urllib.parse.urlencode({"csrfmiddlewaretoken": token, "username": f"nobody-{n}", "password": "wrong"})
    attempt = urllib.request.Request(url, data=form.encode(), headers={"X-Forwarded-For": f"198.51.100.{n}",
                                                                         "Referer": url})
    try:
        return opener.open(attempt, timeout=30).status
    except urllib.error.HTTPError as refused:
        return refused.code


def test_a_forged_x_forwarded_for_counts_only_from_a_trusted_proxy(served):
    port, trusted = served
    # ready may still be 503 (the model loading): what counts is 429 or not
    rate_limited = [status_on_a_new_connection(port, "/api/v1/ready", {"X-Forwarded-For": f"203.0.113.{n}"}) == 429
                    for n in range(1, 6)]
    logins = [failed_login_with_forged_address(port, n) for n in range(1, 5)]
    if trusted:  # each forged address is a client of its own
        assert rate_limited == [False] * 5
        assert logins == [200] * 4  # the form again, with its error
    else:  # every request is loopback's
        assert rate_limited == [False] * 3 + [True] * 2
        assert logins == [200] * 2 + [429] * 2  # the third failure locks the address out
