"""The web processes' connection pool: a connection goes back holding no session lock of its borrower."""
import time

import pytest
from django.db import connection, connections


def advisory_locks(key: str) -> int:
    other = connections.create_connection("default")  # a session of its own, outside the pool's lending
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = hashtext(%s)::oid",
                           [key])
            return cursor.fetchone()[0]
    finally:
        other.close()


@pytest.mark.django_db(transaction=True)
def test_a_lock_left_held_is_dropped_when_the_connection_goes_back_to_the_pool():
    assert connection.pool is not None  # the test settings pool like the web processes do
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_lock(hashtext('pool-test'))")  # never unlocked by its holder
    assert advisory_locks("pool-test") == 1
    connection.close()  # back to the pool, as at a request's end
    deadline = time.monotonic() + 5  # the pool resets returned connections in a thread of its own
    while advisory_locks("pool-test") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert advisory_locks("pool-test") == 0
