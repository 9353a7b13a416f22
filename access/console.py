"""Console access: every console page acts for one user id, chosen by `console_user_id`."""
from functools import wraps

from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from access.grants import actor_name, console_user_id


def console_view(view):
    """Log-in required; sets `request.acting_user_id`, or explains that the account has no user id."""

    @login_required
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        request.acting_user_id = console_user_id(request)
        if request.acting_user_id is None:
            return render(request, "access/no_user_id.html", status=403)
        request.actor = actor_name(request.user)
        return view(request, *args, **kwargs)

    return wrapped


def is_htmx(request) -> bool:
    return request.headers.get("HX-Request") == "true"
