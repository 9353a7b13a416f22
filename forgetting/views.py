"""The console's Forget page: a deletion request → the dry run's items and counts → delete for good; and the
search that finds "one memory" by its words."""
from django.contrib import messages
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from access.console import console_view
from audit.labels import plural
from forgetting.criteria import DeleteRequestError, UnknownTargetError
from forgetting.forms import ForgetForm
from forgetting.services import deletion_preview, hard_delete
from memories.selectors import memories_with_words

MEMORY_CHOICES = 10


@console_view
def forget(request):
    user_id = request.acting_user_id
    if request.method != "POST":
        form = ForgetForm(user_id=user_id, initial=request.GET.dict())
        return render(request, "forgetting/forget.html", {"form": form})
    form = ForgetForm(request.POST, user_id=user_id)
    if not form.is_valid():
        return render(request, "forgetting/forget.html", {"form": form}, status=400)
    try:
        if request.POST.get("step") != "confirm":
            preview = deletion_preview(user_id=user_id, criteria=form.criteria())
            return render(request, "forgetting/forget_preview.html", {
                "form": form, "preview": preview, "counts": preview["counts"],
                "total": sum(preview["counts"].values()), "target": form.target_label()})
        result = hard_delete(user_id=user_id, criteria=form.criteria(), actor=request.actor,
                             audit_reason=form.cleaned_data["reason"])
    except (DeleteRequestError, UnknownTargetError) as error:
        form.add_error(None, str(error))
        return render(request, "forgetting/forget.html", {"form": form}, status=400)
    messages.success(request, f"Forgotten for good: {plural(result['counts']['memories'], 'memory', 'memories')}.")
    return redirect("audit-event", pk=result["audit_event_id"])


@console_view
@require_POST
def forget_memory_search(request):
    """Up to ten of the acting user's memories holding the typed words, as radio buttons setting `memory_id`.
    POSTed (htmx), like the memory browser's search, so the words never appear in a URL or an access log."""
    text = request.POST.get("memory_q", "")
    memories = memories_with_words(user_id=request.acting_user_id, text=text, limit=MEMORY_CHOICES)
    return render(request, "forgetting/_memory_choices.html", {"memories": memories, "searched": bool(text.strip())})
