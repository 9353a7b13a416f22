"""Hand edits to the entity graph from the console and the API: aliases and typed relations.

Each function is one state change in a transaction with its audit row (ids and
counts only, never the alias text or names).
"""
import re

from django.db import transaction
from django.db.models import Exists, OuterRef, Q

from audit.labels import AuditAction
from audit.services import audit_record
from entities.models import Alias, AliasOrigin, Entity, Relation
from entities.names import is_role_phrase, normalize_name
from entities.services import relation_upsert

PREDICATE_PATTERN = re.compile(r"^[a-z][a-z_]{1,62}[a-z]$")


class CurationError(ValueError):
    """An edit that cannot be made (empty alias, unknown alias, self-loop, bad predicate)."""


@transaction.atomic
def entity_alias_add(*, entity: Entity, alias: str, actor: str) -> Alias:
    normalized = normalize_name(alias)
    if not normalized:
        raise CurationError("An alias needs at least one letter or digit.")
    origin = AliasOrigin.ROLE if is_role_phrase(normalized) else AliasOrigin.MANUAL
    created, was_new = Alias.objects.get_or_create(
        entity=entity, normalized=normalized,
        defaults={"user_id": entity.user_id, "alias": alias.strip(), "origin": origin},
    )
    if was_new:
        audit_record(actor=actor, action=AuditAction.ENTITY_ALIAS_ADD, user_id=entity.user_id,
                     target_ids={"entity": entity.public_id}, counts={"aliases": 1})
    return created


@transaction.atomic
def entity_alias_remove(*, entity: Entity, alias: str, actor: str) -> int:
    """Remove an alias by its text or normalized form. Returns how many rows went (0 or 1)."""
    normalized = normalize_name(alias)
    deleted, _ = Alias.objects.filter(entity=entity, normalized=normalized).delete()
    if not deleted:
        raise CurationError("This entity has no such alias.")
    audit_record(actor=actor, action=AuditAction.ENTITY_ALIAS_REMOVE, user_id=entity.user_id,
                 target_ids={"entity": entity.public_id}, counts={"aliases": deleted})
    return deleted


@transaction.atomic
def relation_create(*, subject: Entity, predicate: str, object: Entity, actor: str,
                    confidence: float = 0.9, valid_from=None) -> Relation:
    """Add (or strengthen) a typed edge subject —predicate→ object between two of one user's entities."""
    predicate = predicate.strip().lower()
    if not PREDICATE_PATTERN.match(predicate):
        raise CurationError("A predicate is lowercase words joined by underscores, e.g. partner_of.")
    if subject.pk == object.pk:
        raise CurationError("A relation needs two different entities.")
    if subject.user_id != object.user_id:
        raise CurationError("Both entities must belong to the same user.")
    relation = relation_upsert(subject=subject, predicate=predicate, object=object, confidence=confidence,
                               valid_from=valid_from)
    audit_record(actor=actor, action=AuditAction.RELATION_CREATE, user_id=subject.user_id,
                 target_ids={"relation": relation.pk, "subject": subject.public_id, "object": object.public_id})
    return relation


@transaction.atomic
def relation_delete(*, relation: Relation, actor: str) -> int:
    """Remove a typed edge for good. An end that is a tombstone (a forgotten person kept only because
    this edge pointed at it) goes too once no edge is left. Returns how many tombstones went."""
    relation_id, user_id, ends = relation.pk, relation.user_id, [relation.subject_id, relation.object_id]
    relation.delete()
    linked = Relation.objects.filter(Q(subject=OuterRef("pk")) | Q(object=OuterRef("pk")))
    tombstones = Entity.objects.filter(pk__in=ends, deleted_at__isnull=False).exclude(Exists(linked))
    removed = tombstones.count()
    tombstones.delete()
    audit_record(actor=actor, action=AuditAction.RELATION_DELETE, user_id=user_id, target_ids={"relation": relation_id},
                 counts={"relations": 1, "tombstones": removed})
    return removed
