"""Per-user write serialisation: one transaction-scoped PostgreSQL advisory lock per user id.

Writes that read before they write race when two requests of one user run at
once: resolving a name finds no entity and creates one, reconcile finds no
earlier copy of a statement and stores another. Eight parallel ingests naming
"Jonas Berg" made eight entities. A write stage or a forget holds this lock for
the rest of its transaction, so one user's writes take turns; other users'
writes never wait for it, and reads take no lock.

PostgreSQL may still abort one of two transactions that wait on each other
(a deadlock with a write that takes no user lock, such as the expiry purge);
`retry_on_conflict` runs such a unit of work again. The locks are django-pglock's advisory locks.
"""
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

import pglock
from django.db import OperationalError, connection

T = TypeVar("T")
# deadlock_detected, serialization_failure: the transaction was aborted and may simply be run again.
RETRYABLE_SQLSTATES = {"40P01", "40001"}
ATTEMPTS = 3
BACKOFF_SECONDS = 0.05


def user_write_lock(user_id: str) -> None:
    """Wait for, then hold until the current transaction ends, the write lock of `user_id`."""
    pglock.advisory(f"recall-write:{user_id}", xact=True).acquire()


@contextmanager
def user_queue_turn(user_id: str) -> Iterator[bool]:
    """Try to take the turn at running `user_id`'s queued background ingests (a session-level advisory
    lock, held across the many transactions of a job): yields whether this connection got it, and gives it
    back at exit. A worker that dies loses its connection and with it the turn, so the next one resumes."""
    # acquire/release rather than the context manager, which would also open a savepoint inside a
    # transaction: a job's failure must not roll back the progress it recorded.
    turn = pglock.advisory(f"recall-ingest-queue:{user_id}", timeout=0)
    taken = turn.acquire()
    try:
        yield taken
    finally:
        if taken:
            turn.release()


def retry_on_conflict(work: Callable[[], T]) -> T:
    """Run `work`, which opens its own transaction, up to ATTEMPTS times while PostgreSQL aborts it for a
    deadlock or a serialization failure. Inside an outer transaction nothing can be retried: it raises."""
    for attempt in range(1, ATTEMPTS + 1):
        try:
            return work()
        except OperationalError as error:
            sqlstate = getattr(error.__cause__, "sqlstate", None)
            if attempt == ATTEMPTS or connection.in_atomic_block or sqlstate not in RETRYABLE_SQLSTATES:
                raise
            time.sleep(BACKOFF_SECONDS * attempt)
    raise AssertionError("unreachable")
