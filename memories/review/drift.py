"""Drift detection: has what we know about a person materially changed since we first knew them?

An entity's centroid is the normalized mean embedding of its memories. The first time it can be
computed it is stored as `centroid_at_creation`, with the entity's relation set as
`relations_at_creation`. Later, when the centroid has moved more than `drift.centroid_distance_threshold`
cosine distance AND the relation set's Jaccard similarity with the creation set is below
`drift.jaccard_threshold`, the entity is flagged and an EntityReview(kind drift) asks the user.
Both conditions are required.
"""
from datetime import datetime

import numpy as np
from django.db import transaction
from django.utils import timezone

from audit.labels import AuditAction
from audit.services import audit_record
from entities.models import Entity, EntityKind, EntityReview, EntityReviewKind, Relation, RelationStatus
from memories.models import Memory, Status
from recall_site.config import recall_setting


def centroid_of(vectors) -> list[float] | None:
    if len(vectors) == 0:
        return None
    mean = np.mean(np.asarray(vectors, dtype=np.float64), axis=0)
    norm = np.linalg.norm(mean)
    return (mean / norm).tolist() if norm else None


def cosine_distance(a, b) -> float:
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return float(1.0 - a.dot(b) / (np.linalg.norm(a) * np.linalg.norm(b)))


def jaccard(a: set, b: set) -> float:
    return len(a & b) / len(a | b) if a | b else 1.0


def has_drifted(distance: float, similarity: float) -> bool:
    drift = recall_setting("drift")
    return distance > drift["centroid_distance_threshold"] and similarity < drift["jaccard_threshold"]


def entity_centroid(entity: Entity) -> list[float] | None:
    vectors = list(
        Memory.objects.filter(entities=entity, embedding__isnull=False)
        .exclude(status=Status.EXPIRED).values_list("embedding", flat=True)
    )
    return centroid_of(vectors)


def entity_relation_set(entity: Entity) -> set[str]:
    """Active edges as "predicate>neighbour" (outgoing) and "predicate<neighbour" (incoming)."""
    live = Relation.objects.filter(status=RelationStatus.ACTIVE)
    outgoing = live.filter(subject=entity).values_list("predicate", "object__public_id")
    incoming = live.filter(object=entity).values_list("predicate", "subject__public_id")
    return {f"{p}>{n}" for p, n in outgoing} | {f"{p}<{n}" for p, n in incoming}


def entity_drift_check(entity: Entity, now: datetime | None = None) -> bool:
    """Refresh the entity's centroid (baseline on first computation); True if this call flagged it."""
    centroid = entity_centroid(entity)
    if centroid is None:
        return False
    relations = sorted(entity_relation_set(entity))
    Entity.objects.filter(pk=entity.pk, centroid_at_creation__isnull=True).update(
        centroid_at_creation=centroid, relations_at_creation=relations)
    Entity.objects.filter(pk=entity.pk).update(centroid=centroid)
    entity.refresh_from_db(fields=["centroid", "centroid_at_creation", "relations_at_creation", "drift_flagged"])
    distance = cosine_distance(centroid, entity.centroid_at_creation)
    if not has_drifted(distance, jaccard(set(relations), set(entity.relations_at_creation))):
        return False
    return _flag(entity, now or timezone.now())


@transaction.atomic
def _flag(entity: Entity, now: datetime) -> bool:
    claimed = Entity.objects.filter(pk=entity.pk, drift_flagged=False, deleted_at__isnull=True).update(
        drift_flagged=True, drift_flagged_at=now)
    if claimed:
        EntityReview.objects.create(user_id=entity.user_id, kind=EntityReviewKind.DRIFT, entity=entity)
    return bool(claimed)


def detect_drift(now: datetime | None = None) -> int:
    """Scheduled: check every live entity that has memories. Returns how many were newly flagged."""
    entities = Entity.objects.live().exclude(kind=EntityKind.SELF).filter(memories__isnull=False).distinct()
    return sum(entity_drift_check(entity, now) for entity in entities.iterator())


@transaction.atomic
def drift_rebaseline(*, entity: Entity, actor: str) -> Entity:
    """The user confirmed the change: today's centroid and relations become the new baseline."""
    Entity.objects.filter(pk=entity.pk).update(
        centroid_at_creation=entity_centroid(entity), relations_at_creation=sorted(entity_relation_set(entity)),
        drift_flagged=False, drift_flagged_at=None)
    EntityReview.objects.filter(entity=entity, kind=EntityReviewKind.DRIFT, resolved_at__isnull=True).update(
        resolved_at=timezone.now())
    audit_record(actor=actor, action=AuditAction.DRIFT_REBASELINE, user_id=entity.user_id,
                 target_ids={"entity_ids": [entity.public_id]})
    entity.refresh_from_db()
    return entity
