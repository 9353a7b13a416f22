"""Hard delete without residue — "forget everything about Sarah", a session, memory ids, a filter — with a
dry run that lists what would go.

`hard_delete` plans (forgetting/planner.py) and purges (recall_site/purging.py: each app's purger removes
its own rows) in one transaction under the user's write lock, retried when PostgreSQL aborts it for a
deadlock; on any error nothing is deleted. The audit event (action `hard_delete`) holds actor, user id,
entity/session/memory ids, counts and a reason category — never content and never the words of the
request. A VACUUM of the touched tables follows in the background (`forgetting.tasks`).
"""
from django.db import transaction
from django_q.tasks import async_task

from audit.labels import AuditAction
from audit.services import audit_record
from entities.models import Entity
from forgetting.criteria import DeleteCriteria, reason_category
from forgetting.planner import deletion_plan
from forgetting.tasks import vacuum_after_forget
from memories.models import Memory
from recall_site.config import recall_setting
from recall_site.locks import retry_on_conflict, user_write_lock
from recall_site.purging import id_array, purge, purge_counts
from recall_site.telemetry import FORGET_REQUESTS

# A dry run lists at most this many memories (the counts cover all of them).
PREVIEW_LIMIT = 200


def deletion_counts(*, user_id: str, criteria: DeleteCriteria) -> dict:
    """Dry run: how many rows per table a hard delete would remove. Changes nothing."""
    return purge_counts(deletion_plan(user_id, criteria))


def deletion_preview(*, user_id: str, criteria: DeleteCriteria, limit: int = PREVIEW_LIMIT) -> dict:
    """Dry run with the items: the counts, and the first `limit` memories and every entity that would go,
    so a person sees what is swept in with her (a same-session memory, "Emma L", her employer)."""
    plan = deletion_plan(user_id, criteria)
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
        plan = deletion_plan(user_id, criteria)
        counts = purge(plan)
        event = audit_record(
            actor=actor, action=AuditAction.HARD_DELETE, user_id=user_id,
            target_ids=criteria.scope_ids() | {"session_ids": plan.sessions},
            counts=counts, reason=reason_category(audit_reason),
        )
        if recall_setting("audit.vacuum_after_forget"):
            transaction.on_commit(lambda: async_task(vacuum_after_forget))
        transaction.on_commit(lambda: FORGET_REQUESTS.labels(criteria.kind()).inc())
    return {"counts": counts, "audit_event_id": event.pk}
