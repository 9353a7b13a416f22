"""Review queue pages: approve, edit, reject and pin memories; answer entity questions.

Every action works in place with htmx (it answers with a partial) and without
JavaScript (it redirects back to the queue).
"""
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from access.console import console_view, is_htmx
from entities.models import EntityReview
from memories.forms import MemoryEditForm
from memories.models import Memory
from memories.review.forms import BulkReviewForm
from memories.review.selectors import memories_needing_review, open_entity_reviews, review_count, with_review_reasons
from memories.review.services import (
    entity_review_resolve,
    memories_bulk_review,
    memory_approve,
    memory_person_choose,
    memory_reject,
)
from memories.selectors import with_source_messages
from memories.services import memory_pin, memory_update

ENTITY_REVIEW_DONE = {
    ("drift", True): "Updated: what Recall knows now is the new baseline for this entity.",
    ("drift", False): "Dismissed: nothing has changed about this entity.",
    ("ambiguous_match", True): "Confirmed: they stay separate entities.",
    ("ambiguous_match", False): "Dismissed.",
}
BULK_DONE = {"approve": "approved", "reject": "deleted", "pin": "pinned", "unpin": "unpinned"}


def _own_memory(request, pk) -> Memory:
    """The acting user's memory, or 404 — the same answer whether another user's id exists or not."""
    return get_object_or_404(Memory, pk=pk, user_id=request.acting_user_id)


def _with_reason(request, memory: Memory) -> Memory:
    """The memory with `reason_text`, the words for why it waits, and the `source_messages` it came from."""
    return _evidence(request.acting_user_id, [memory])[0]


def _evidence(user_id: str, memories: list[Memory]) -> list[Memory]:
    return with_source_messages(user_id, with_review_reasons(user_id, memories))


def _queue_context(request, **extra) -> dict:
    memories = _evidence(request.acting_user_id, list(memories_needing_review(request.acting_user_id)))
    return {"memories": memories, "entity_reviews": list(open_entity_reviews(request.acting_user_id)), **extra}


def _reviewed(request, template, context, message):
    """Answer an action: a partial for htmx (and a refresh of the review badge), else back to the queue."""
    if is_htmx(request):
        response = render(request, template, context)
        response["HX-Trigger"] = "reviewChanged"
        return response
    messages.success(request, message)
    return redirect(_safe_next(request, request.POST) or "review")


def _safe_next(request, params) -> str:
    """The `next` page to return to (the memory page an edit started from), if it is on this site."""
    next_url = params.get("next", "")
    return next_url if url_has_allowed_host_and_scheme(next_url, allowed_hosts={request.get_host()}) else ""


@console_view
def review_queue(request):
    return render(request, "memories/review.html", _queue_context(request))


@console_view
@require_POST
def review_approve(request, pk):
    memory = memory_approve(memory=_own_memory(request, pk), actor=request.actor)
    message = "Approved. The assistant will rely on this memory."
    return _reviewed(request, "memories/_review_done.html", {"memory": memory, "message": message}, message)


@console_view
@require_POST
def review_reject(request, pk):
    memory = _own_memory(request, pk)
    memory_id = memory.pk
    memory_reject(memory=memory, actor=request.actor)
    message = "Rejected and deleted for good."
    return _reviewed(request, "memories/_review_done.html", {"memory_id": memory_id, "message": message}, message)


@console_view
@require_POST
def review_pin(request, pk):
    pinned = request.POST.get("pinned") != "false"
    memory = memory_pin(memory=_own_memory(request, pk), actor=request.actor, pinned=pinned)
    memory = _with_reason(request, memory)
    message = "Pinned." if pinned else "Unpinned."
    template = "memories/_review_item.html" if memory.needs_review else "memories/_review_done.html"
    return _reviewed(request, template, {"memory": memory, "message": message}, message)


@console_view
def review_badge(request):
    """The navigation badge's count (swapped into it) after each in-place action."""
    return render(request, "memories/_review_count.html", {"review_count": review_count(request.acting_user_id)})


@console_view
def review_item(request, pk):
    memory = _with_reason(request, _own_memory(request, pk))
    return render(request, "memories/_review_item.html", {"memory": memory})


@console_view
def review_edit(request, pk):
    memory = _with_reason(request, _own_memory(request, pk))
    form = MemoryEditForm(request.POST) if request.method == "POST" else MemoryEditForm.for_memory(memory)
    if request.method == "POST" and form.is_valid():
        try:
            memory = memory_update(memory=memory, actor=request.actor, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            if "approve" in request.POST:
                return review_approve(request, pk)
            memory = _with_reason(request, memory)
            return _reviewed(request, "memories/_review_item.html", {"memory": memory}, "Saved.")
    context = {"memory": memory, "form": form, "next": _safe_next(request, request.POST or request.GET)}
    status = 400 if form.errors and not is_htmx(request) else 200
    template = "memories/_review_edit.html" if is_htmx(request) else "memories/review_edit.html"
    return render(request, template, context, status=status)


@console_view
@require_POST
def review_choose_person(request, pk):
    """Which person an ambiguous name in this memory means: `person` is one of the two people's public ids, or
    "new" for someone new called `new_name` (the name as said when left blank)."""
    memory = _with_reason(request, _own_memory(request, pk))
    if memory.ambiguity is None:
        raise Http404("This memory raises no open name question.")
    review, choice = memory.ambiguity.review, request.POST.get("person", "")
    entity = {person.public_id: person for person in memory.ambiguity.people}.get(choice)
    if entity is None and choice != "new":
        return HttpResponseBadRequest("Choose one of the people, or someone new.")
    new_name = request.POST.get("new_name", "").strip() or memory.ambiguity.word
    chosen = memory_person_choose(memory=memory, review=review, actor=request.actor, entity=entity,
                                  new_name=new_name)
    memory = _with_reason(request, _own_memory(request, pk))
    message = f"Now about {chosen.canonical_name}."
    template = "memories/_review_item.html" if memory.needs_review else "memories/_review_done.html"
    return _reviewed(request, template, {"memory": memory, "message": message, "resolved_review": review}, message)


@console_view
@require_POST
def review_bulk(request):
    candidates = memories_needing_review(request.acting_user_id)
    form = BulkReviewForm(request.POST, user_memory_ids=list(candidates.values_list("pk", flat=True)))
    if not form.is_valid():
        errors = [error for errors in form.errors.values() for error in errors]
        if is_htmx(request):
            return render(request, "memories/_review_list.html", _queue_context(request, bulk_errors=errors))
        return render(request, "memories/review.html", _queue_context(request, bulk_errors=errors), status=400)
    action = form.cleaned_data["action"]
    chosen = list(candidates.filter(pk__in=form.cleaned_data["memory_ids"]))
    done = memories_bulk_review(memories=chosen, action=action, actor=request.actor)
    message = f"{done} memor{'y' if done == 1 else 'ies'} {BULK_DONE[action]}."
    return _reviewed(request, "memories/_review_list.html", _queue_context(request, bulk_message=message), message)


@console_view
@require_POST
def entity_review_answer(request, pk):
    review = get_object_or_404(EntityReview, pk=pk, user_id=request.acting_user_id, resolved_at__isnull=True)
    confirmed = request.POST.get("decision") == "confirm"
    entity_review_resolve(review=review, actor=request.actor, confirmed=confirmed)
    message = ENTITY_REVIEW_DONE[review.kind, confirmed]
    return _reviewed(request, "memories/_review_done.html", {"review": review, "message": message}, message)
