"""Login lockout on the console and the admin (django-axes), configured in Recall's config.

After `security.login_failure_limit` failed logins for one account name, or
from one client IP, further logins for it are refused for
`security.login_cool_off_minutes` (a failure meanwhile starts the wait again);
a successful login clears the count. Axes calls these functions by dotted path
on every attempt, so config overrides apply at once.
"""
from datetime import timedelta

from django.shortcuts import render

from recall_site.config import recall_setting

LOCKED_TEMPLATE = "registration/locked_out.html"


def failure_limit(request, credentials) -> int:
    return recall_setting("security.login_failure_limit")


def cool_off(request) -> timedelta:
    return timedelta(minutes=recall_setting("security.login_cool_off_minutes"))


def lockout_response(request, original_response, credentials):
    """A 429 page saying how long to wait, with Retry-After."""
    wait = cool_off(request)
    response = render(request, LOCKED_TEMPLATE, {"minutes": int(wait.total_seconds() // 60)}, status=429)
    response["Retry-After"] = str(int(wait.total_seconds()))
    return response
