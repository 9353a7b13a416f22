"""Memories' side of changes to entities: when two entities merge, the memories linked to the loser or
about it move to the winner (receiver of `entities.signals.entity_merging`); when a reviewer says which
person an ambiguous name in one memory means, that memory's links move to the person chosen."""
from memories.models import Memory, MemoryEntity


def move_memory_links(sender, *, winner, loser, **kwargs) -> dict[str, int]:
    already = MemoryEntity.objects.filter(entity=winner).values("memory_id")
    MemoryEntity.objects.filter(entity=loser, memory_id__in=already).delete()
    return {
        "memory_links": MemoryEntity.objects.filter(entity=loser).update(entity=winner),
        "memory_subjects": Memory.objects.filter(subject=loser).update(subject=winner),
    }


def move_memory_person(memory: Memory, *, from_ids: list[int], to) -> None:
    """Re-point one memory's links to (and subject among) `from_ids` at `to`, keeping the link's role; with no
    such link (an ambiguous mention is left unlinked), `to` is linked as a mention."""
    links = MemoryEntity.objects.filter(memory=memory, entity_id__in=from_ids)
    role = links.values_list("role", flat=True).first() or "mention"
    links.exclude(entity=to).delete()
    MemoryEntity.objects.get_or_create(memory=memory, entity=to, defaults={"user_id": memory.user_id, "role": role})
    if memory.subject_id in from_ids:
        memory.subject = to
        Memory.objects.filter(pk=memory.pk).update(subject=to)
