"""The recurring django-q2 schedules Recall needs, created idempotently (called by `serve`)."""
from django_q.models import Schedule

SCHEDULES = [
    # (name, task function, schedule type, minutes — only for MINUTES schedules)
    ("embed pending memories", "memories.tasks.embed_pending_memories", Schedule.MINUTES, 1),
    ("expire and purge memories", "memories.tasks.expire_and_purge_memories", Schedule.DAILY, None),
    ("detect entity drift", "memories.tasks.detect_entity_drift", Schedule.DAILY, None),
    ("purge old audit events", "audit.tasks.purge_audit_events", Schedule.DAILY, None),
    ("weekly metric snapshots", "audit.tasks.snapshot_weekly_metrics", Schedule.WEEKLY, None),
]


def ensure_schedules() -> None:
    for name, func, schedule_type, minutes in SCHEDULES:
        Schedule.objects.update_or_create(
            name=name,
            defaults={"func": func, "schedule_type": schedule_type, "minutes": minutes, "repeats": -1},
        )
