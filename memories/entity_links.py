"""Memories' side of changes to entities: when two entities merge, the memories linked to the loser or
about it move to the winner (receiver of `entities.signals.entity_merging`)."""
from memories.models import Memory, MemoryEntity


def move_memory_links(sender, *, winner, loser, **kwargs) -> dict[str, int]:
    already = MemoryEntity.objects.filter(entity=winner).values("memory_id")
    MemoryEntity.objects.filter(entity=loser, memory_id__in=already).delete()
    return {
        "memory_links": MemoryEntity.objects.filter(entity=loser).update(entity=winner),
        "memory_subjects": Memory.objects.filter(subject=loser).update(subject=winner),
    }
