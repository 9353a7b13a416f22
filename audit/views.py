"""Console pages for the audit log and switching the acting user id."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db import transaction
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from access.console import console_view
from access.grants import ACTING_USER_SESSION_KEY, actor_name, can_act_for, console_user_id, granted_user_ids
from audit.forms import AuditFilterForm, SwitchUserForm
from audit.labels import AuditAction
from audit.models import AuditEvent
from audit.services import audit_record

AUDIT_PAGE_SIZE = 50


@login_required
@require_POST
def switch_user(request):
    form = SwitchUserForm(request.POST)
    if not form.is_valid():
        messages.error(request, form.errors["user_id"][0])
        return _back(request)
    user_id = form.cleaned_data["user_id"]
    if not can_act_for(request.user, user_id):
        messages.error(request, f"Your account may not act for user id “{user_id}”.")
        return _back(request)
    previous = console_user_id(request)
    with transaction.atomic():
        audit_record(actor=actor_name(request.user), action=AuditAction.CONSOLE_SWITCH_USER, user_id=user_id,
                     target_ids={"from_user_id": previous, "to_user_id": user_id})
    request.session[ACTING_USER_SESSION_KEY] = user_id
    messages.success(request, f"Now acting for user id “{user_id}”.")
    return _back(request)


def _back(request):
    next_url = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(next_url, allowed_hosts={request.get_host()}):
        return redirect(next_url)
    return redirect("dashboard")


def _visible_events(request):
    """Staff see every event; other accounts only those of their granted user ids."""
    if request.user.is_staff:
        return AuditEvent.objects.all()
    return AuditEvent.objects.filter(user_id__in=granted_user_ids(request.user))


@console_view
def audit_log(request):
    events = _visible_events(request)
    actions = events.order_by("action").values_list("action", flat=True).distinct()
    form = AuditFilterForm(request.GET, actions=list(actions))
    if form.is_valid():
        events = _filtered(events, form.cleaned_data, staff=request.user.is_staff)
    else:
        events = events.none()
    page = Paginator(events, AUDIT_PAGE_SIZE).get_page(request.GET.get("page"))
    params = request.GET.copy()
    params.pop("page", None)
    return render(request, "audit/audit_log.html", {
        "form": form, "page": page, "querystring": params.urlencode(),
        "filtered": any(form.cleaned_data.values()) if form.is_valid() else True,
    }, status=200 if form.is_valid() else 400)


def _filtered(events, data, *, staff: bool):
    if data.get("action"):
        events = events.filter(action=data["action"])
    if data.get("since"):
        events = events.filter(created_at__date__gte=data["since"])
    if data.get("until"):
        events = events.filter(created_at__date__lte=data["until"])
    if staff and data.get("user_id"):
        events = events.filter(user_id=data["user_id"])
    return events


@console_view
def audit_event(request, pk):
    event = get_object_or_404(_visible_events(request), pk=pk)
    return render(request, "audit/audit_event.html", {"event": event})
