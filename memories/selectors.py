"""Reads of memories, always scoped to one user id."""
from django.db.models import QuerySet

from access.grants import granted_user_ids
from memories.models import Memory

LIST_FILTERS = ("type", "domain", "status", "source", "session_id", "pinned", "needs_review")


def memory_list(*, user_id: str, **filters) -> QuerySet:
    queryset = Memory.objects.for_user(user_id).prefetch_related("entities").order_by("-created_at", "-id")
    wanted = {name: value for name, value in filters.items() if name in LIST_FILTERS and value is not None}
    return queryset.filter(**wanted)


def memories_visible_to(account) -> QuerySet:
    """Every memory the account may see: all for staff, else those of its granted user ids."""
    if account.is_staff:
        return Memory.objects.all()
    return Memory.objects.filter(user_id__in=granted_user_ids(account))
