"""Review-queue actions: approve, reject, pin/unpin memories (services.memory_pin); say which person an ambiguous name in a memory
means; confirm or dismiss entity questions.

Each action runs in a transaction and writes its audit row (ids only) in the same transaction.
"""
from django.db import transaction
from django.utils import timezone

from audit.labels import AuditAction
from audit.services import audit_record
from entities.models import Entity, EntityReview, EntityReviewKind
from entities.services import entity_create
from memories.entity_links import move_memory_person
from memories.models import HistoryAction, Memory
from memories.review.drift import drift_rebaseline
from memories.review.selectors import ambiguities, ambiguity_of
from memories.services import history_record, memory_forget, memory_pin
from recall_site.config import recall_setting

BULK_ACTIONS = ("approve", "reject", "pin", "unpin")


@transaction.atomic
def memory_approve(*, memory: Memory, actor: str) -> Memory:
    """Confirm a memory: it leaves the queue, gains a little confidence and, if pinned,
    becomes eligible for the startup digest."""
    step = recall_setting("memory.review_approve_confidence_step")
    memory.needs_review = False
    memory.reviewed_at = timezone.now()
    memory.confidence = min(1.0, round(memory.confidence + step, 4))
    memory.save(update_fields=["needs_review", "reviewed_at", "confidence", "updated_at"])
    history_record(memory, HistoryAction.APPROVED)
    audit_record(actor=actor, action=AuditAction.MEMORY_APPROVE, user_id=memory.user_id,
                 target_ids={"memory_ids": [memory.pk]}, counts={"memories": 1})
    return memory


def memory_reject(*, memory: Memory, actor: str) -> dict:
    """Reject a memory from the queue: it is hard-deleted (audited as review_reject, which
    the hard-delete-requests metric does not count: the user did not ask to forget)."""
    return memory_forget(memory=memory, actor=actor, action=AuditAction.REVIEW_REJECT)


@transaction.atomic
def memories_bulk_review(*, memories: list[Memory], action: str, actor: str) -> int:
    """Apply one review action to several memories, all or nothing."""
    if action not in BULK_ACTIONS:
        raise ValueError(f"Unknown review action: {action}")
    for memory in memories:
        if action == "approve":
            memory_approve(memory=memory, actor=actor)
        elif action == "reject":
            memory_reject(memory=memory, actor=actor)
        else:
            memory_pin(memory=memory, actor=actor, pinned=action == "pin")
    return len(memories)


@transaction.atomic
def memory_person_choose(*, memory: Memory, review: EntityReview, actor: str, entity: Entity | None = None,
                         new_name: str = "") -> Entity:
    """Answer an ambiguous name on a waiting memory: it is about `entity` (one of the review's two people) or,
    without one, someone new called `new_name` (a new entity). The memory's links and subject move to that
    person, the name question is closed (the two are different people), and the memory leaves the queue
    unless another open name question still holds it. Returns the person chosen."""
    people = [review.entity_id, review.candidate_id]
    if review.kind != EntityReviewKind.AMBIGUOUS_MATCH or (entity is not None and entity.pk not in people):
        raise ValueError("Choose one of the two people the name could mean, or someone new.")
    if entity is None and not new_name.strip():
        raise ValueError("Give the new person a name.")
    chosen = entity or entity_create(user_id=memory.user_id, name=new_name)
    move_memory_person(memory, from_ids=people, to=chosen)
    review.resolved_at = timezone.now()
    review.save(update_fields=["resolved_at"])
    if ambiguity_of(memory, ambiguities(memory.user_id)) is None:
        memory.needs_review, memory.review_reason, memory.reviewed_at = False, "", review.resolved_at
        memory.save(update_fields=["needs_review", "review_reason", "reviewed_at", "updated_at"])
    history_record(memory, HistoryAction.PERSON_CHOSEN)
    audit_record(actor=actor, action=AuditAction.MEMORY_PERSON_CHOSEN, user_id=memory.user_id,
                 target_ids={"memory_ids": [memory.pk], "entity_ids": [chosen.public_id], "review_id": review.pk},
                 counts={"memories": 1, "entities_created": int(entity is None)})
    return chosen


@transaction.atomic
def entity_review_resolve(*, review: EntityReview, actor: str, confirmed: bool) -> EntityReview:
    """Answer an entity question and close it.

    Drift, confirmed: the entity's current centroid and relations become its baseline
    (`memories.review.drift.drift_rebaseline`, audited there). Drift, dismissed: the flag is cleared and the
    old baseline kept. Ambiguous match: confirmed means the two entities stay separate."""
    entity = review.entity
    if review.kind == EntityReviewKind.DRIFT and confirmed:
        drift_rebaseline(entity=entity, actor=actor)
        review.refresh_from_db()
        return review
    if review.kind == EntityReviewKind.DRIFT:
        Entity.objects.filter(pk=entity.pk).update(drift_flagged=False, drift_flagged_at=None)
    review.resolved_at = timezone.now()
    review.save(update_fields=["resolved_at"])
    target_ids = {"review_id": review.pk, "entity_ids": [entity.public_id]}
    if review.candidate_id:
        target_ids["candidate_ids"] = [review.candidate.public_id]
    action = AuditAction.ENTITY_REVIEW_CONFIRM if confirmed else AuditAction.ENTITY_REVIEW_DISMISS
    audit_record(actor=actor, action=action, user_id=review.user_id, target_ids=target_ids, counts={"reviews": 1})
    return review
