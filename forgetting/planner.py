"""Which rows a deletion removes: criteria → a `PurgePlan` (recall_site/purging.py). Reads only.

For a person: every memory linked to her or about her and every memory whose text names her (her names,
aliases, "Emma L.", her first name or surname alone unless someone else the user knows carries it);
every memory of a session where she was mentioned; every mention and relation learned in those
sessions; entities known only from what is forgotten (her employer, "Larsson" made from her surname);
her aliases, reviews, outgoing relations, other people's aliases and unresolved references naming her.
Her node is removed, or tombstoned while a relation learned elsewhere still points at her. For
sessions, memory ids and filters: the matching memories and what was learned in those sessions.
"""
from django.db.models import Q, TextField, Value
from django.db.models.functions import Cast, Concat

from entities.models import (
    Alias,
    AliasOrigin,
    Entity,
    EntityKind,
    EntityMention,
    EntityReview,
    Relation,
    UnresolvedReference,
)
from entities.name_forms import entity_terms, name_terms, text_terms
from entities.names import normalize_name
from forgetting.criteria import DeleteCriteria, DeleteRequestError, UnknownTargetError
from memories.models import Memory, MemoryEntity
from recall_site.purging import PurgePlan, id_array
from recall_site.redaction import mentions_any, redact, sql_word_pattern

# An entity with an alias from these was put there by a person, not only by what was said.
CURATED_ALIAS_ORIGINS = (AliasOrigin.CONTACTS, AliasOrigin.MANUAL)


def deletion_plan(user_id: str, criteria: DeleteCriteria) -> PurgePlan:
    criteria.validate()
    entities = _entities(user_id, criteria.entity_refs)
    entity_ids = [entity.pk for entity in entities]
    terms = entity_terms(entities)
    forms = _text_forms(user_id, entity_ids, terms)
    linked_ids = _entity_linked_memory_ids(user_id, entity_ids) | _memory_ids_naming(user_id, forms)
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
        text_terms=forms,
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


def _text_forms(user_id: str, entity_ids: list[int], terms: list[str]) -> list[str]:
    """Her names that select rows by their text: a first name or surname alone only while nobody else the
    user knows carries it."""
    if not entity_ids:
        return []
    own_forms = {normalize_name(term) for term in terms}
    others = Entity.objects.live().filter(user_id=user_id).exclude(pk__in=entity_ids).exclude(
        normalized_name__in=own_forms)
    other_names = [*others.values_list("canonical_name", flat=True),
                   *Alias.objects.filter(entity__in=others).values_list("alias", flat=True)]
    return text_terms(terms, other_names)


def _memory_ids_naming(user_id: str, forms: list[str]) -> set[int]:
    """Memories whose text names her ("emma larsson called", "coffee with Larsson", "gift for Emma L."),
    linked to her or not."""
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
