"""Memory browser: search and filter the acting user's memories; one memory with its history."""
from django.contrib import messages
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from audit.console import console_view
from memories.decay import memory_freshness
from memories.expiry import MemoryNotExpiredError, memory_restore
from memories.forms import MemoryFilterForm
from memories.models import Memory, MemoryEntity
from memories.retrieval import search_memories
from memories.selectors import memory_list

PAGE_SIZE = 25


@console_view
def memory_browser(request):
    form = MemoryFilterForm(request.GET)
    form.is_valid()
    user_id = request.acting_user_id
    sessions = (Memory.objects.for_user(user_id).order_by("session_id")
                .values_list("session_id", flat=True).distinct())
    context = {"form": form, "sessions": list(sessions), "filtered": any(form.cleaned_data.values()),
               "querystring": _querystring(request), "hits": None}
    query = form.cleaned_data.get("q")
    if query:
        context["hits"] = _search_hits(user_id, query, form)
    else:
        memories = memory_list(user_id=user_id, **form.list_filters())
        context["page"] = Paginator(memories, PAGE_SIZE).get_page(request.GET.get("page"))
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


def _querystring(request) -> str:
    """The current filters without the page number, for pagination links."""
    params = request.GET.copy()
    params.pop("page", None)
    return params.urlencode()


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
