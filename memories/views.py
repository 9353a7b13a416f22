"""Console pages for memories."""
from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from audit.access import granted_user_ids
from memories.models import Memory


@login_required
def dashboard(request):
    user_ids = granted_user_ids(request.user)
    counts = Memory.objects.filter(user_id__in=user_ids).count()
    return render(request, "memories/dashboard.html", {"user_ids": user_ids, "memory_count": counts})
