"""Recurring django-q2 schedules: each app registers its upkeep tasks (the function itself, so a renamed
task cannot leave a schedule pointing at nothing) in its `ready()`; `ensure_schedules` (run by `serve`)
creates or updates them idempotently."""
from collections.abc import Callable
from dataclasses import dataclass

from django_q.models import Schedule


@dataclass(frozen=True)
class Recurring:
    name: str
    task: Callable
    schedule_type: str  # Schedule.MINUTES, DAILY, WEEKLY…
    minutes: int | None = None  # only for MINUTES

    @property
    def func(self) -> str:
        return task_name(self.task)


_RECURRING: dict[str, Recurring] = {}


def task_name(task: Callable) -> str:
    """"memories.tasks.embed_memories" for that function: how django-q2 names a task."""
    return f"{task.__module__}.{task.__qualname__}"


def every(name: str, task: Callable, schedule_type: str, minutes: int | None = None) -> None:
    _RECURRING[name] = Recurring(name, task, schedule_type, minutes)


def ensure_schedules() -> None:
    for recurring in _RECURRING.values():
        Schedule.objects.update_or_create(name=recurring.name, defaults={
            "func": recurring.func, "schedule_type": recurring.schedule_type, "minutes": recurring.minutes,
            "repeats": -1})
