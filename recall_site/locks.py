"""Per-user write serialisation: one transaction-scoped PostgreSQL advisory lock per user id.

Writes that read before they write race when two requests of one user run at
once: resolving a name finds no entity and creates one, reconcile finds no
earlier copy of a statement and stores another. Eight parallel ingests naming
"Jonas Berg" made eight entities. A write stage or a forget holds this lock for
the rest of its transaction, so one user's writes take turns; other users'
writes never wait for it, and reads take no lock.
"""
from django.db import connection


def user_write_lock(user_id: str) -> None:
    """Wait for, then hold until the current transaction ends, the write lock of `user_id`."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [f"recall-write:{user_id}"])
