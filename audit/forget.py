"""Hard delete without residue: an entity ("forget everything about Sarah"), sessions, memory ids, a filter.

What one request removes (`hard_delete`; `deletion_counts` reports the same counts and changes nothing):

* Memories: those linked to a forgotten entity (MemoryEntity or subject), every memory of a session
  where she was mentioned (her EntityMention sessions and the sessions of her memories), every memory
  of a requested `source_session`, the requested `memory_ids`, and — with `types`/`before` — the
  matching memories (on their own, or narrowing sessions/ids). Their entity links and history go
  with them (text vectors and embeddings are columns of the deleted rows); supersession links
  pointing at them are cleared; their ids are cut out of TurnInjection rows; queued django-q2 tasks
  that name them are dropped.
* Per forgotten entity: her aliases, mentions, entity reviews, every relation of which she is the
  subject, relations between two forgotten entities, other entities' aliases that name her ("Sarah's
  partner", unless the word is part of that entity's own name), the user's unresolved references
  that name her, and — in the sessions where she was mentioned — all unresolved references and turn
  injections. Profile preference/favourite entries and earlier audit reasons that name her are
  dropped/redacted. Other entities that shared deleted memories get their centroid cleared (the
  drift task recomputes it).
* Her node: removed — unless another entity's relation still points at her (e.g. "Alex partner_of
  Sarah", a fact about Alex). Then that edge is kept and her row becomes a tombstone: names blanked,
  centroids and creation snapshot cleared, only id, kind, created_at and deleted_at left; graph
  walks skip it.
* Per requested source session: its memories, mentions, unresolved references, turn injections and
  the relations learned in it.

Everything runs in one transaction with set-based SQL; on any error nothing is deleted. The audit
event (action `hard_delete`) holds actor, user id, entity/session/memory ids, counts and a reason
category (`ForgetReason`) — never content and never the words of the request.
"""
from dataclasses import asdict, dataclass, field
from datetime import datetime

from django.db import transaction
from django.db.models import Q, TextField, Value
from django.db.models.functions import Cast, Concat
from django_q.tasks import async_task

from audit.labels import ForgetReason
from audit.services import audit_record
from entities.models import (
    Alias, AliasOrigin, Entity, EntityKind, EntityMention, EntityReview, Relation, UnresolvedReference,
)
from entities.name_forms import entity_terms, name_terms, text_terms
from entities.names import normalize_name
from memories.models import Memory, MemoryEntity
from recall_site.config import recall_setting
from recall_site.locks import retry_on_conflict, user_write_lock
from recall_site.purging import PurgePlan, id_array, purge, purge_counts
from recall_site.redaction import mentions_any, redact, sql_word_pattern

# An entity with an alias from these was put there by a person, not only by what was said.
CURATED_ALIAS_ORIGINS = (AliasOrigin.CONTACTS, AliasOrigin.MANUAL)
# A dry run lists at most this many memories (the counts cover all of them).
PREVIEW_LIMIT = 200


def reason_category(reason: str) -> str:
    """A category code given as the reason is kept; any other text becomes `user_request`."""
    code = (reason or "").strip().lower()
    return code if code in ForgetReason.values else ForgetReason.USER_REQUEST


class DeleteRequestError(ValueError):
    """The criteria do not describe a deletion we can do (→ 400)."""


class UnknownTargetError(LookupError):
    """An entity or memory id is not one of this user's (→ 404; no existence leak)."""


@dataclass
class DeleteCriteria:
    entity_refs: list[str] = field(default_factory=list)
    source_session: list[str] = field(default_factory=list)
    memory_ids: list[int] = field(default_factory=list)
    types: list[str] = field(default_factory=list)
    before: datetime | None = None

    def validate(self) -> None:
        if not (self.entity_refs or self.source_session or self.memory_ids or self.types or self.before):
            raise DeleteRequestError("Give at least one of entity_refs, source_session, memory_ids, types, before.")
        if self.entity_refs and (self.types or self.before):
            raise DeleteRequestError("types/before cannot narrow an entity forget: everything about her goes.")

    def scope_ids(self) -> dict:
        scope = {k: v for k, v in asdict(self).items() if v and k != "before"}
        if self.before:
            scope["before"] = self.before.isoformat()
        return scope


def deletion_counts(*, user_id: str, criteria: DeleteCriteria) -> dict:
    """Dry run: how many rows per table a hard delete would remove. Changes nothing."""
    return purge_counts(_plan(user_id, criteria))


def deletion_preview(*, user_id: str, criteria: DeleteCriteria, limit: int = PREVIEW_LIMIT) -> dict:
    """Dry run with the items: the counts, and the first `limit` memories and every entity that would go,
    so a person sees what is swept in with her (a same-session memory, "Emma L", her employer)."""
    plan = _plan(user_id, criteria)
    memories = Memory.objects.filter(pk__in=id_array(plan.memory_ids)).order_by("-created_at")[:limit]
    entities = Entity.objects.filter(pk__in=plan.entity_ids).order_by("canonical_name")
    requested = set(criteria.entity_refs)
    return {
        "counts": purge_counts(plan),
        "memories": [{"id": m.pk, "type": m.type, "content": m.content, "session_id": m.session_id,
                      "created_at": m.created_at.isoformat()} for m in memories],
        "entities": [{"id": e.public_id, "name": e.canonical_name, "kind": e.kind,
                      "outcome": "tombstoned" if e.pk in plan.tombstone_ids else "removed",
                      "why": "requested" if e.public_id in requested else "known only from what is forgotten"}
                     for e in entities],
        "sessions": plan.sessions,
    }


def hard_delete(*, user_id: str, criteria: DeleteCriteria, actor: str, audit_reason: str = "") -> dict:
    """Delete everything the criteria select, in one transaction, and audit it (ids and counts only).
    A transaction PostgreSQL aborts for a deadlock is planned and run again."""
    return retry_on_conflict(lambda: _hard_delete(user_id, criteria, actor, audit_reason))


def _hard_delete(user_id: str, criteria: DeleteCriteria, actor: str, audit_reason: str) -> dict:
    with transaction.atomic():
        user_write_lock(user_id)  # no ingest of this user writes between the plan and the delete
        plan = _plan(user_id, criteria)
        counts = purge(plan)
        event = audit_record(
            actor=actor, action="hard_delete", user_id=user_id,
            target_ids=criteria.scope_ids() | {"session_ids": plan.sessions},
            counts=counts, reason=reason_category(audit_reason),
        )
        if recall_setting("audit.vacuum_after_forget"):
            transaction.on_commit(lambda: async_task("audit.tasks.vacuum_after_forget"))
    return {"counts": counts, "audit_event_id": event.pk}


# Planning: which rows go. Reads only.

def _plan(user_id: str, criteria: DeleteCriteria) -> PurgePlan:
    criteria.validate()
    entities = _entities(user_id, criteria.entity_refs)
    entity_ids = [entity.pk for entity in entities]
    terms = entity_terms(entities)
    linked_ids = _entity_linked_memory_ids(user_id, entity_ids) | _memory_ids_naming(user_id, entity_ids, terms)
    entity_sessions = _entity_sessions(user_id, entity_ids, linked_ids)
    memory_ids = linked_ids | _session_memory_ids(user_id, entity_sessions) | _requested_memory_ids(user_id, criteria)
    forgotten_sessions = sorted(entity_sessions | set(criteria.source_session))
    relations = Relation.objects.filter(user_id=user_id).filter(
        Q(subject_id__in=entity_ids) | Q(session_id__in=forgotten_sessions)
    )
    relation_ids = set(relations.values_list("pk", flat=True))
    orphan_ids = _orphan_entity_ids(user_id, entity_ids, forgotten_sessions, memory_ids, relation_ids)
    gone = entity_ids + orphan_ids
    relation_ids |= set(Relation.objects.filter(subject_id__in=gone, object_id__in=gone).values_list("pk", flat=True))
    incoming = Relation.objects.filter(user_id=user_id, object_id__in=entity_ids).exclude(pk__in=relation_ids)
    return PurgePlan(
        user_id=user_id,
        memory_ids=sorted(memory_ids),
        entity_ids=gone,
        tombstone_ids=sorted(set(incoming.values_list("object_id", flat=True))),
        sessions=forgotten_sessions,
        terms=terms,
        relation_ids=sorted(relation_ids),
        alias_ids=_alias_ids(user_id, gone, name_terms(terms)),
        mention_ids=list(EntityMention.objects.filter(user_id=user_id).filter(
            Q(entity_id__in=gone) | Q(session_id__in=forgotten_sessions)).values_list("pk", flat=True)),
        review_ids=list(EntityReview.objects.filter(
            Q(entity_id__in=gone) | Q(candidate_id__in=gone)).values_list("pk", flat=True)),
        unresolved_ids=_unresolved_ids(user_id, forgotten_sessions, name_terms(terms)),
    )


def _entities(user_id: str, public_ids: list[str]) -> list[Entity]:
    entities = list(Entity.objects.live().filter(user_id=user_id, public_id__in=public_ids))
    missing = set(public_ids) - {entity.public_id for entity in entities}
    if missing:
        raise UnknownTargetError(f"Unknown entity ids: {', '.join(sorted(missing))}")
    if any(entity.kind == EntityKind.SELF for entity in entities):
        raise DeleteRequestError("The user's own entity cannot be forgotten; delete by session or memory instead.")
    return entities


def _entity_linked_memory_ids(user_id: str, entity_ids: list[int]) -> set[int]:
    if not entity_ids:
        return set()
    linked = MemoryEntity.objects.filter(user_id=user_id, entity_id__in=entity_ids).values_list("memory_id")
    subject = Memory.objects.filter(user_id=user_id, subject_id__in=entity_ids).values_list("pk")
    return {pk for (pk,) in linked.union(subject)}


def _memory_ids_naming(user_id: str, entity_ids: list[int], terms: list[str]) -> set[int]:
    """Memories whose text names her ("emma larsson called", "coffee with Larsson", "gift for Emma L."),
    linked to her or not."""
    if not entity_ids:
        return set()
    own_forms = {normalize_name(term) for term in terms}
    others = Entity.objects.live().filter(user_id=user_id).exclude(pk__in=entity_ids).exclude(
        normalized_name__in=own_forms)
    other_names = [*others.values_list("canonical_name", flat=True),
                   *Alias.objects.filter(entity__in=others).values_list("alias", flat=True)]
    forms = text_terms(terms, other_names)
    if not forms:
        return set()
    said = Concat("content", Value(" "), Cast("details", TextField()), output_field=TextField())
    return set(Memory.objects.filter(user_id=user_id).alias(said=said).filter(
        said__iregex=sql_word_pattern(forms)).values_list("pk", flat=True))


def _orphan_entity_ids(user_id: str, entity_ids: list[int], sessions: list[str], memory_ids: set[int],
                       relation_ids: set[int]) -> list[int]:
    """Entities known only from what is being forgotten (her employer, a restaurant, "Emma L" made from her
    name): every mention in a forgotten session, every memory deleted, every relation deleted, none added by
    hand or from contacts."""
    mentioned = EntityMention.objects.filter(user_id=user_id, session_id__in=sessions).values_list("entity_id")
    linked = MemoryEntity.objects.filter(memory_id__in=id_array(memory_ids)).values_list("entity_id")
    candidates = Entity.objects.live().filter(user_id=user_id, pk__in=mentioned.union(linked)).exclude(
        Q(pk__in=entity_ids) | Q(kind=EntityKind.SELF))
    kept_elsewhere = (
        Q(pk__in=EntityMention.objects.filter(user_id=user_id).exclude(session_id__in=sessions).values("entity_id"))
        | Q(pk__in=MemoryEntity.objects.filter(user_id=user_id).exclude(memory_id__in=id_array(memory_ids))
            .values("entity_id"))
        | Q(pk__in=Memory.objects.filter(user_id=user_id, subject_id__isnull=False)
            .exclude(pk__in=id_array(memory_ids)).values("subject_id"))
        | Q(pk__in=Relation.objects.filter(user_id=user_id).exclude(pk__in=relation_ids).values("subject_id"))
        | Q(pk__in=Relation.objects.filter(user_id=user_id).exclude(pk__in=relation_ids).values("object_id"))
        | Q(pk__in=Alias.objects.filter(user_id=user_id, origin__in=CURATED_ALIAS_ORIGINS).values("entity_id"))
    )
    return sorted(candidates.exclude(kept_elsewhere).values_list("pk", flat=True))


def _entity_sessions(user_id: str, entity_ids: list[int], linked_ids: set[int]) -> set[str]:
    """Sessions where she was mentioned, and the sessions of memories that reference her."""
    if not entity_ids:
        return set()
    mentioned = EntityMention.objects.filter(user_id=user_id, entity_id__in=entity_ids).values_list("session_id")
    referenced = Memory.objects.filter(pk__in=id_array(linked_ids)).values_list("session_id")
    return {sid for (sid,) in mentioned.union(referenced) if sid}


def _session_memory_ids(user_id: str, sessions: set[str]) -> set[int]:
    if not sessions:
        return set()
    return set(Memory.objects.filter(user_id=user_id, session_id__in=sessions).values_list("pk", flat=True))


def _requested_memory_ids(user_id: str, criteria: DeleteCriteria) -> set[int]:
    if not (criteria.source_session or criteria.memory_ids or criteria.types or criteria.before):
        return set()
    memories = Memory.objects.filter(user_id=user_id)
    if criteria.memory_ids:
        found = set(memories.filter(pk__in=criteria.memory_ids).values_list("pk", flat=True))
        missing = set(criteria.memory_ids) - found
        if missing:
            raise UnknownTargetError(f"Unknown memory ids: {', '.join(map(str, sorted(missing)))}")
    if criteria.source_session or criteria.memory_ids:
        memories = memories.filter(Q(session_id__in=criteria.source_session) | Q(pk__in=criteria.memory_ids))
    if criteria.types:
        memories = memories.filter(type__in=criteria.types)
    if criteria.before:
        memories = memories.filter(created_at__lt=criteria.before)
    return set(memories.values_list("pk", flat=True))


def _alias_ids(user_id: str, entity_ids: list[int], terms: list[str]) -> list[int]:
    """Her aliases, plus other entities' aliases naming her (not when the word is their own name)."""
    ids = set(Alias.objects.filter(entity_id__in=entity_ids).values_list("pk", flat=True))
    if terms:
        others = Alias.objects.filter(user_id=user_id, alias__iregex=sql_word_pattern(terms)).exclude(
            entity_id__in=entity_ids).values_list("pk", "alias", "entity__canonical_name")
        ids |= {pk for pk, alias, own_name in others if mentions_any(redact(alias, _own_words(own_name)), terms)}
    return sorted(ids)


def _own_words(name: str) -> list[str]:
    return [word for word in name.split() if word]


def _unresolved_ids(user_id: str, sessions: list[str], terms: list[str]) -> list[int]:
    naming_her = Q(mention__iregex=sql_word_pattern(terms)) if terms else Q(pk__in=[])
    return list(UnresolvedReference.objects.filter(user_id=user_id).filter(
        Q(session_id__in=sessions) | naming_her).values_list("pk", flat=True))
