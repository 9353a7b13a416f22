"""The recurring django-q2 schedules Recall needs, created idempotently (called by `serve`)."""
from django_q.models import Schedule

SCHEDULES = [
    # (name, task function, schedule type, minutes)
    ("embed pending memories", "memories.tasks.embed_pending_memories", Schedule.MINUTES, 1),
]


def ensure_schedules() -> None:
    for name, func, schedule_type, minutes in SCHEDULES:
        Schedule.objects.update_or_create(
            name=name,
            defaults={"func": func, "schedule_type": schedule_type, "minutes": minutes, "repeats": -1},
        )
