"""Memory browser: search and filter the acting user's memories; one memory with what was said, its history.

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
from memories.models import Domain, Memory, MemoryEntity
from memories.review.selectors import with_review_reasons
from memories.selectors import memory_list, update_chain, with_source_messages
from recall_site.config import recall_setting
from search.retrieval import SearchOutcome, search_memories

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
        outcome = _search(user_id, query, form)
        context.update(outcome=outcome, hits=outcome.hits, every_domain=len(outcome.domains) == len(Domain),
                       sensitive_bar=recall_setting("gating.sensitive_min_confidence"))
    else:
        memories = memory_list(user_id=user_id, **form.list_filters())
        context["page"] = Paginator(memories, PAGE_SIZE).get_page(data.get("page"))
    return render(request, "memories/browser.html", context)


def _search(user_id: str, query: str, form: MemoryFilterForm) -> SearchOutcome:
    """The API's search, gate and all: the question's domain decides which domains it reads and the
    confidence it needs (a sensitive memory needs 0.80 whatever), unless a domain filter is chosen or
    "all domains" is ticked. The other filters narrow the hits."""
    filters = form.list_filters()
    outcome = search_memories(
        user_id=user_id, query=query, types=[filters["type"]] if filters["type"] else None,
        domains=[filters["domain"]] if filters["domain"] else None,
        include_all_domains=form.cleaned_data.get("all_domains", False),
    )
    wanted = {name: value for name, value in filters.items()
              if value is not None and name in ("status", "session_id", "pinned")}
    outcome.hits = [hit for hit in outcome.hits
                    if all(getattr(hit.memory, name) == value for name, value in wanted.items())]
    return outcome


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
    if memory.needs_review:
        with_review_reasons(memory.user_id, [memory])
    with_source_messages(memory.user_id, [memory])
    return render(request, "memories/memory_detail.html", {
        "memory": memory, "links": links, "history": history,
        "update_chain": update_chain(memory),
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
