"""Memory browser: search and filter the acting user's memories; one memory with its history.

The search form is POSTed, so what a user searches for never appears in a URL
and so never in an access log; the filters (type, session, page…) stay in the
query string, where links can carry them. A `q` in a URL is ignored.
"""
from django.contrib import messages
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from access.console import console_view
from memories.decay import memory_freshness
from memories.expiry import MemoryNotExpiredError, memory_restore
from memories.forms import MemoryFilterForm
from memories.models import Memory, MemoryEntity
from memories.retrieval import search_memories
from memories.selectors import memory_list

PAGE_SIZE = 25


@console_view
@require_http_methods(["GET", "POST"])
def memory_browser(request):
    data = request.POST if request.method == "POST" else _without(request.GET, "q")
    form = MemoryFilterForm(data)
    form.is_valid()
    user_id = request.acting_user_id
    sessions = (Memory.objects.for_user(user_id).order_by("session_id")
                .values_list("session_id", flat=True).distinct())
    context = {"form": form, "sessions": list(sessions), "filtered": any(form.cleaned_data.values()),
               "querystring": _without(data, "q", "page", "csrfmiddlewaretoken").urlencode(), "hits": None}
    query = form.cleaned_data.get("q")
    if query:
        context["hits"] = _search_hits(user_id, query, form)
    else:
        memories = memory_list(user_id=user_id, **form.list_filters())
        context["page"] = Paginator(memories, PAGE_SIZE).get_page(data.get("page"))
    return render(request, "memories/browser.html", context)


def _search_hits(user_id: str, query: str, form: MemoryFilterForm) -> list:
    """Search the user's live memories across every domain; the other filters narrow the hits."""
    filters = form.list_filters()
    outcome = search_memories(
        user_id=user_id, query=query, types=[filters["type"]] if filters["type"] else None,
        domains=[filters["domain"]] if filters["domain"] else None, include_all_domains=not filters["domain"],
        min_confidence=0.0,
    )
    wanted = {name: value for name, value in filters.items()
              if value is not None and name in ("status", "session_id", "pinned")}
    return [hit for hit in outcome.hits
            if all(getattr(hit.memory, name) == value for name, value in wanted.items())]


def _without(params, *names):
    """A copy of the request parameters without `names` (the query, the page number, the CSRF token)."""
    params = params.copy()
    for name in names:
        params.pop(name, None)
    return params


@console_view
def memory_detail(request, pk):
    memory = get_object_or_404(Memory.objects.select_related("superseded_by"), pk=pk,
                               user_id=request.acting_user_id)
    links = (MemoryEntity.objects.filter(memory=memory, entity__deleted_at__isnull=True)
             .select_related("entity").order_by("entity__canonical_name"))
    history = list(memory.history.all())
    related_ids = {row.related_memory_id for row in history if row.related_memory_id}
    existing = set(Memory.objects.for_user(memory.user_id).filter(pk__in=related_ids).values_list("pk", flat=True))
    for row in history:
        row.related_exists = row.related_memory_id in existing
    return render(request, "memories/memory_detail.html", {
        "memory": memory, "links": links, "history": history,
        "supersedes": Memory.objects.for_user(memory.user_id).filter(superseded_by=memory).order_by("-created_at"),
        "freshness": memory_freshness(memory, timezone.now()),
    })


@console_view
@require_POST
def memory_restore_view(request, pk):
    memory = get_object_or_404(Memory, pk=pk, user_id=request.acting_user_id)
    try:
        memory_restore(memory=memory, actor=request.actor)
    except MemoryNotExpiredError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, "Restored: the memory is active again and counts as fresh from now.")
    return redirect("memory-detail", pk=pk)
