"""Stage 4, resolve_refs: map every mention to one of the user's entities.

Uses the resolver in `entities/resolver.py` (exact → normalized → alias → partial →
fuzzy). A new form of a known name becomes an alias ("Sarah Chen" after "Sarah"
is the same person, and the fuller form becomes the canonical name); an unknown
name becomes a new entity; "Sarah is my manager" gives Sarah the role alias "my
manager", so "my boss" resolves to her afterwards. A mention matching two
people equally (two Sarahs) is never merged blindly: an ambiguous_match
EntityReview is opened and the memory goes to review. Every mention left
without an entity is logged with `unresolved_record`; every resolved person is
recorded as mentioned in the session (one statement per message: `mentions_record`).
"""
from entities.models import EntityKind
from entities.names import is_role_phrase, normalize_name
from entities.resolver import resolve_or_create
from entities.services import (
    ambiguity_review_record, mentions_record, role_alias_assign, self_entity, unresolved_record,
)
from memories.pipeline.base import IngestContext, Mention, Stage, WorkItem


class ResolveRefs(Stage):
    name = "resolve_refs"

    def run(self, item: WorkItem, context: IngestContext) -> None:
        seen = resolve_candidates(item.candidates, context)
        self._record_mentions(item, context, seen)

    def _record_mentions(self, item: WorkItem, context: IngestContext, seen: dict[str, Mention]) -> None:
        people = {m.entity.pk: m.entity for m in seen.values() if m.entity and m.entity.kind == EntityKind.PERSON}
        mentions_record(entities=list(people.values()), session_id=context.session_id, at=item.message.timestamp,
                        source_message_id=item.message.id)


def resolve_candidates(candidates, context: IngestContext, seen: dict[str, Mention] | None = None) -> dict:
    """Resolve every mention of these candidates; an ambiguous person sends the candidate to review."""
    seen = {} if seen is None else seen
    for candidate in candidates:
        for mention in candidate.mentions:
            resolve_one(mention, context, seen)
            if mention.ambiguous:
                candidate.needs_review, candidate.review_reason = True, "ambiguous_entity"
    return seen


def user_self(context: IngestContext):
    """The user's own entity, looked up (or created) once per run, on first use."""
    if context.self_entity is None:
        context.self_entity = self_entity(context.user_id)
    return context.self_entity


def resolve_one(mention: Mention, context: IngestContext, seen: dict[str, Mention]) -> None:
    """Set `mention.entity` (or `mention.ambiguous`); mentions repeated in one message resolve once."""
    if mention.kind == "self":
        mention.entity = user_self(context)
        return
    key = normalize_name(mention.text)
    if key in seen:
        mention.entity, mention.ambiguous = seen[key].entity, seen[key].ambiguous
    else:
        resolution = resolve_or_create(user_id=context.user_id, mention=mention.text, kind=mention.kind)
        mention.entity = resolution.entity
        if resolution.method == "ambiguous":
            mention.ambiguous = True
            ambiguity_review_record(user_id=context.user_id, candidates=resolution.candidates)
        if not mention.entity:
            reason = "ambiguous" if mention.ambiguous else "role_unknown" if is_role_phrase(key) else "no_match"
            unresolved_record(user_id=context.user_id, session_id=context.session_id, mention=mention.text,
                              reason=reason)
        seen[key] = mention
    if mention.entity and mention.role_phrase:
        role_alias_assign(entity=mention.entity, role_phrase=mention.role_phrase)
