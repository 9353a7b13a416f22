"""The remember_memory tool: store what the assistant was explicitly asked to remember.

The content is already what to remember, so the candidate is handed to the write
pipeline's one list of stages (`ingest.pipeline.STAGES`) as an explicit run:
pre_filter, extract and infer do not apply; tag_domain (unless a domain is given),
resolve_refs, reconcile and persist run as for any message, so saying the same
thing twice reinforces, a new value for a known attribute supersedes, and the
people the content names are linked as ingest links them (besides any given in
`entities`), so forgetting a person also finds what was remembered about her.
The content is kept as the memory's source message (under the given
`source_message_id`, else a stable id made from it), like an ingested message.
"""
from django.utils import timezone

from entities.names import normalize_name
from ingest.pipeline import message_id_for, run_stages
from ingest.pipeline.base import (
    Candidate,
    IngestContext,
    Mention,
    Message,
    WorkItem,
    default_confidence,
    default_importance,
)
from ingest.pipeline.names_in_text import named_mentions, role_mentions
from memories.models import Memory, MemoryType, Scope, Source


def remember_memory(*, user_id: str, actor: str, session_id: str, content: str, entities=(),
                    source_message_id: str | None = None, type: str = MemoryType.FACT, domain: str = "",
                    scope: str = Scope.USER_GLOBAL, pinned: bool = False, importance: float | None = None,
                    confidence: float | None = None, sensitive: bool = False) -> Memory:
    candidate = Candidate(
        type=type, content=content.strip(),
        confidence=confidence if confidence is not None else default_confidence(type),
        importance=importance if importance is not None else default_importance(type),
        mentions=_mentions(content, entities), domain=domain, sensitive=sensitive, pinned=pinned,
        scope=scope, source=Source.MANUAL_TOOL,
    )
    now = timezone.now()
    message_id = source_message_id or message_id_for(session_id, now, content)
    item = WorkItem(Message(content=content, timestamp=now, id=message_id), candidates=[candidate])
    context = IngestContext(user_id=user_id, session_id=session_id, source=Source.MANUAL_TOOL, actor=actor,
                            explicit=True)
    run_stages([item], context)
    return Memory.objects.get(pk=item.results[0].memory_id)


def _mentions(content: str, entities) -> list[Mention]:
    """The entities named by the caller, then the people, places and roles the content names itself."""
    mentions, seen = [], set()
    for mention in [Mention(name) for name in entities] + named_mentions(content) + role_mentions(content):
        if (key := normalize_name(mention.text)) not in seen:
            seen.add(key)
            mentions.append(mention)
    return mentions
