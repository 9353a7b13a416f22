"""The remember_memory tool: store what the assistant was explicitly asked to remember.

The content is already what to remember, so pre_filter and extract are skipped;
the people it names are found as ingest finds them (and added to the `entities`
given), so forgetting a person also finds what was remembered about her; the
memory goes through tag_domain (unless a domain is given), resolve_refs,
reconcile and persist like any other, so saying the same thing twice reinforces
and a new value for a known attribute supersedes.
"""
import copy

from django.db import transaction
from django.utils import timezone

from entities.names import normalize_name
from memories.models import Memory, MemoryType, Scope, Source
from memories.pipeline.base import Candidate, IngestContext, Mention, Message, WorkItem
from memories.pipeline.names_in_text import named_mentions, role_mentions
from memories.pipeline.persist import Persist
from memories.pipeline.reconcile import Reconcile
from memories.pipeline.resolve_refs import ResolveRefs
from memories.pipeline.tag_domain import tag_candidates
from recall_site.config import recall_setting
from recall_site.locks import retry_on_conflict, user_write_lock

WRITE_STAGES = (ResolveRefs(), Reconcile(), Persist())


def remember_memory(*, user_id: str, actor: str, session_id: str, content: str, entities=(),
                    source_message_id: str | None = None, type: str = MemoryType.FACT, domain: str = "",
                    scope: str = Scope.USER_GLOBAL, pinned: bool = False, importance: float | None = None,
                    confidence: float | None = None, sensitive: bool = False) -> Memory:
    confidence_key = "memory.preference_confidence" if type == MemoryType.PREFERENCE else "memory.stated_confidence"
    candidate = Candidate(
        type=type, content=content.strip(),
        confidence=confidence if confidence is not None else recall_setting(confidence_key),
        importance=importance if importance is not None else float(recall_setting("memory.importance").get(type, 0.5)),
        mentions=_mentions(content, entities), domain=domain, sensitive=sensitive, pinned=pinned,
        scope=scope, source=Source.MANUAL_TOOL,
    )
    tag_candidates([candidate])
    context = IngestContext(user_id=user_id, session_id=session_id, source=Source.MANUAL_TOOL, actor=actor)
    message = Message(content=content, timestamp=timezone.now(), id=source_message_id or "")
    return retry_on_conflict(lambda: _write(WorkItem(message, candidates=[copy.deepcopy(candidate)]), context,
                                            pinned))


def _write(item: WorkItem, context: IngestContext, pinned: bool) -> Memory:
    with transaction.atomic():
        user_write_lock(context.user_id)  # a parallel identical call reinforces this one instead of duplicating it
        for stage in WRITE_STAGES:
            stage.run(item, context)
        memory = Memory.objects.get(pk=item.results[0].memory_id)
        if pinned and not memory.pinned:  # "remember this, and pin it" on something already known
            memory.pinned = True
            memory.save(update_fields=["pinned", "updated_at"])
    return memory


def _mentions(content: str, entities) -> list[Mention]:
    """The entities named by the caller, then the people, places and roles the content names itself."""
    mentions, seen = [], set()
    for mention in [Mention(name) for name in entities] + named_mentions(content) + role_mentions(content):
        if (key := normalize_name(mention.text)) not in seen:
            seen.add(key)
            mentions.append(mention)
    return mentions
