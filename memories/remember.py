"""The remember_memory tool: store what the assistant was explicitly asked to remember."""
from entities.services import resolve_or_create
from memories.models import Domain, MemoryType, Source
from memories.services import memory_create


def remember_memory(*, user_id: str, actor: str, session_id: str, content: str, entities=(),
                    source_message_id: str | None = None, **fields):
    resolved = [resolve_or_create(user_id=user_id, mention=name) for name in entities]
    fields.setdefault("type", MemoryType.FACT)
    fields.setdefault("domain", Domain.PERSONAL)
    return memory_create(
        user_id=user_id,
        session_id=session_id,
        content=content,
        source=Source.MANUAL_TOOL,
        source_message_ids=[source_message_id] if source_message_id else [],
        entities=[r.entity for r in resolved if r.entity],
        **fields,
    )
