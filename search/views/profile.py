"""Profile page: name, preferences, favorites and the assistant's name."""
from django.contrib import messages
from django.shortcuts import redirect, render

from access.console import console_view
from memories.forms import ProfileForm
from memories.services import profile_get, profile_update
from search.hydration import startup_digest


@console_view
def profile(request):
    current = profile_get(request.acting_user_id)
    context = {"profile": current, "digest": startup_digest(request.acting_user_id)}
    if request.method != "POST":
        form = ProfileForm(initial={name: getattr(current, name) for name in ProfileForm.base_fields})
        return render(request, "memories/profile.html", {"form": form, **context})
    form = ProfileForm(request.POST)
    if not form.is_valid():
        return render(request, "memories/profile.html", {"form": form, **context}, status=400)
    profile_update(user_id=request.acting_user_id, actor=request.actor, **form.cleaned_data)
    messages.success(request, "Profile saved.")
    return redirect("profile")
