"""Stage 4, resolve_refs: map every mention to one of the user's entities.

Uses the resolver in `entities/resolver.py` (exact → normalized → alias → partial →
fuzzy). A new form of a known name becomes an alias ("Sarah Chen" after "Sarah"
is the same person, and the fuller form becomes the canonical name); an unknown
name becomes a new entity; "Sarah is my manager" gives Sarah the role alias "my
manager", so "my boss" resolves to her afterwards. A role phrase nobody holds
yet used in two or more sessions (Caroline's "my friend"), or at once when the
phrase already means one particular holder ("my mom", "my husband", "my son", "I
joined a travel club": `Mention.node_at_once`), becomes an unnamed node of its
own ("My mom", "Caroline's husband", "Tim's travel club") with the role as alias
and the relation to its owner; when the role's holder is named later ("my
husband Tom", "our group, 'Connected LGBTQ Activists'"), the node is merged into
it (aliases kept). A mention matching two
people equally (two Sarahs) is never merged blindly: an ambiguous_match
EntityReview is opened and the memory goes to review. Every mention left
without an entity is logged with `unresolved_record`; every resolved person is
recorded as mentioned in the session (one statement per message: `mentions_record`).
"""
from entities.merge import entity_merge
from entities.models import AliasOrigin, EntityKind
from entities.names import is_role_phrase, normalize_name
from entities.resolver import DirectMatches, resolve_or_create
from entities.services import (
    ROLE_UNNAMED,
    alias_add,
    ambiguity_review_record,
    entity_create,
    mentions_record,
    relation_upsert,
    role_alias_assign,
    role_phrases_said,
    self_entity,
    unresolved_record,
)
from ingest.pipeline.base import IngestContext, Mention, Stage, WorkItem
from ingest.pipeline.names_in_text import SPOUSE_WORDS

ROLE_NODE_MIN_SESSIONS = 2  # a role said in one session only stays a mention, unless it singles its holder out


class ResolveRefs(Stage):
    name = "resolve_refs"

    def run(self, item: WorkItem, context: IngestContext) -> None:
        seen = resolve_candidates(item.candidates, context, message_id=item.message.id)
        self._record_mentions(item, context, seen)

    def _record_mentions(self, item: WorkItem, context: IngestContext, seen: dict[str, Mention]) -> None:
        people = {m.entity.pk: m.entity for m in seen.values()
                  if m.entity and m.entity.kind in (EntityKind.PERSON, EntityKind.PET)}
        mentions_record(entities=list(people.values()), session_id=context.session_id, at=item.message.timestamp,
                        source_message_id=item.message.id)


def resolve_candidates(candidates, context: IngestContext, seen: dict[str, Mention] | None = None,
                       message_id: str = "") -> dict:
    """Resolve every mention of these candidates (said in message `message_id`); an ambiguous person sends the
    candidate to review."""
    seen = {} if seen is None else seen
    for candidate in candidates:
        for mention in candidate.mentions:
            resolve_one(mention, context, seen, message_id)
            if mention.ambiguous:
                candidate.needs_review, candidate.review_reason = True, "ambiguous_entity"
    return seen


def user_self(context: IngestContext):
    """The user's own entity, looked up (or created) once per run, on first use."""
    if context.self_entity is None:
        context.self_entity = self_entity(context.user_id)
    return context.self_entity


def resolve_one(mention: Mention, context: IngestContext, seen: dict[str, Mention], message_id: str = "") -> None:
    """Set `mention.entity` (or `mention.ambiguous`); mentions repeated in one message resolve once."""
    if mention.kind == "self":
        mention.entity = user_self(context)
        return
    key = normalize_name(mention.text)
    if key in seen:
        mention.entity, mention.ambiguous = seen[key].entity, seen[key].ambiguous
    elif mention.owner is not None:
        _resolve_role_node(mention, context, seen, message_id)
        seen[key] = mention
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
    if mention.entity and mention.names_role:
        _merge_role_node(mention, context)
    if mention.entity and mention.role_phrase:
        role_alias_assign(entity=mention.entity, role_phrase=mention.role_phrase)


def _resolve_role_node(mention: Mention, context: IngestContext, seen: dict[str, Mention], message_id: str) -> None:
    """"my mom": the entity holding the role under any of its words (by name or role alias; two holders are an
    ambiguity for review), or a new unnamed one related to its owner — at once when the phrase singles it out,
    else once said in a second session; until then an unresolved mention of the session."""
    forms = mention.role_forms or (mention.text,)
    # One statement for every way of saying the role, and its short name ("Gina's store").
    direct = DirectMatches.read(context.user_id, forms + mention.node_aliases)

    def holders(said: tuple) -> list:
        return list({e.pk: e for form in said for e in direct.of(form) if e.kind == mention.kind}.values())

    found = holders((mention.text,)) or holders(forms)
    if not found and (found := _same_place(mention, holders(mention.node_aliases))):
        alias_add(entity=found[0], alias=mention.text, origin=AliasOrigin.ROLE)  # "Gina's online store" too
    if len(found) > 1:
        mention.ambiguous = True
        ambiguity_review_record(user_id=context.user_id, candidates=found)
        return
    if found:
        mention.entity = found[0]
        return
    said = role_phrases_said(user_id=context.user_id, mentions=forms)
    sessions = {session for session, _ in said} | {context.session_id}
    if (len(sessions) < ROLE_NODE_MIN_SESSIONS and not mention.node_at_once) or not mention.role_predicate:
        unresolved_record(user_id=context.user_id, session_id=context.session_id, mention=mention.text,
                          reason=ROLE_UNNAMED)
        return
    resolve_one(mention.owner, context, seen)
    node = entity_create(user_id=context.user_id, name=_capitalised(mention.text), kind=mention.kind,
                         origin=AliasOrigin.ROLE)
    phrases = {phrase for _, phrase in said} | {mention.text}
    for phrase in (phrases | set(mention.node_aliases)) - {mention.text}:
        alias_add(entity=node, alias=phrase, origin=AliasOrigin.ROLE)  # "Melanie's partner" said before
    subject, object = (mention.owner.entity, node) if mention.owner_is_subject else (node, mention.owner.entity)
    said_spouse = any(phrase.rsplit(" ", 1)[-1] in SPOUSE_WORDS for phrase in phrases)
    predicate = "spouse_of" if mention.role_predicate == "partner_of" and said_spouse else mention.role_predicate
    relation_upsert(subject=subject, predicate=predicate, object=object,
                    session_id=context.session_id, source_message_id=message_id)
    mention.entity = node


def _same_place(mention: Mention, holders: list) -> list:
    """"my online clothing store" after "my clothing store": the one place of one's own under its short name
    ("Gina's store") is the same, whatever else is said of it, when one works there; a club or a school only
    when one description holds the other ("my writers group" → "writers group", not "hiking club" →
    "travel club")."""
    if len(holders) != 1:
        return []
    words = set(mention.text.lower().split())
    theirs = set(holders[0].canonical_name.lower().split())
    return holders if mention.role_predicate == "works_at" or words <= theirs or theirs <= words else []


def _merge_role_node(mention: Mention, context: IngestContext) -> None:
    """"my husband Tom" after "my husband" was a node of its own: the node becomes Tom; "our group, 'Connected
    LGBTQ Activists'" after "I joined an LGBTQ activist group" likewise (a node of the same kind, by name or
    alias; only an unnamed node, called by its owner's role, and never two)."""
    owner = mention.names_role.rsplit(" ", 1)[0].lower() + " "  # "caroline's ", "my "
    nodes = [node for node in DirectMatches.read(context.user_id, (mention.names_role,)).of(mention.names_role)
             if node.kind == mention.entity.kind and node.pk != mention.entity.pk
             and node.canonical_name.lower().startswith(owner)]
    if len(nodes) == 1:
        entity_merge(user_id=context.user_id, winner=mention.entity, loser=nodes[0], actor=context.actor)


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]
