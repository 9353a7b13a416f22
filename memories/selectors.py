"""Reads of memories, always scoped to one user id."""
from django.db.models import Q, QuerySet

from access.grants import granted_user_ids
from memories.models import Memory, SourceMessage

LIST_FILTERS = ("type", "domain", "status", "source", "session_id", "pinned", "needs_review")


def memory_list(*, user_id: str, **filters) -> QuerySet:
    queryset = Memory.objects.for_user(user_id).prefetch_related("entities").order_by("-created_at", "-id")
    wanted = {name: value for name, value in filters.items() if name in LIST_FILTERS and value is not None}
    return queryset.filter(**wanted)


def memories_with_words(*, user_id: str, text: str, limit: int = 10) -> list[Memory]:
    """The user's newest memories (any status) whose content holds every word of `text`, case-insensitive."""
    words = text.split()
    if not words:
        return []
    wanted = Q()
    for word in words:
        wanted &= Q(content__icontains=word)
    return list(Memory.objects.for_user(user_id).without_vectors().filter(wanted).order_by("-created_at", "-id")[:limit])


def memories_visible_to(account) -> QuerySet:
    """Every memory the account may see: all for staff, else those of its granted user ids."""
    if account.is_staff:
        return Memory.objects.all()
    return Memory.objects.filter(user_id__in=granted_user_ids(account))


def with_source_messages(user_id: str, memories):
    """Set `source_messages` on each memory: the kept words of its source messages, in the order it names them
    (one query for all); a message whose words were not kept is left out. Returns the memories."""
    wanted = {message_id for memory in memories for message_id in memory.source_message_ids}
    found = {row.message_id: row for row in SourceMessage.objects.filter(user_id=user_id, message_id__in=wanted)}
    for memory in memories:
        memory.source_messages = [found[message_id] for message_id in memory.source_message_ids if message_id in found]
    return memories


UPDATE_CHAIN_MAX = 50


def update_chain(memory: Memory) -> list[Memory]:
    """The memories linked to `memory` as updates, at any distance: those it superseded or names in
    `details.updates` (what it revised, ingest/pipeline/value_updates.py) and those that superseded it or that
    its `details.updated_by` names. Oldest first, `memory` included; its own user's only, at most
    UPDATE_CHAIN_MAX. [] when none."""
    chain = {memory.pk: memory}
    frontier = [memory]
    while frontier and len(chain) < UPDATE_CHAIN_MAX:
        named = {pk for linked in frontier for pk in [linked.superseded_by_id, *linked.details.get("updates", []),
                                                        *linked.details.get("updated_by", [])]}
        links = Q(pk__in=named - {None}) | Q(superseded_by_id__in=[linked.pk for linked in frontier])
        frontier = list(Memory.objects.for_user(memory.user_id).without_vectors().filter(links)
                        .exclude(pk__in=chain)[:UPDATE_CHAIN_MAX - len(chain)])
        chain.update((linked.pk, linked) for linked in frontier)
    if len(chain) == 1:
        return []
    return sorted(chain.values(), key=lambda linked: (linked.created_at, linked.pk))
