"""The web processes' connection pool: a connection goes back holding no session lock of its borrower; a
worker's kept connection is tried before each task."""
import os
import subprocess
import sys
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


def test_a_worker_tries_its_kept_connection_before_each_task():
    code = ("import sys; sys.argv = ['manage.py', 'qcluster']; import django; django.setup(); "
            "from django.conf import settings; db = settings.DATABASES['default']; "
            "print(db['CONN_MAX_AGE'], db['CONN_HEALTH_CHECKS'])")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "recall_site.settings_test"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.split() == ["60", "True"]  # a restarted PostgreSQL costs the worker a reconnect, not a task


def test_a_statement_asked_again_runs_prepared(db, canary_bypassed):
    from search.retrieval import search_memories
    from tests import factories

    factories.memory("alice", "Lunch with Sarah on Thursday")
    for _ in range(3):
        assert search_memories(user_id="alice", query="when is lunch with Sarah").hits
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE %s", ["%memories_memory%"])
        assert cursor.fetchone()[0] > 0  # parsed and planned once on this connection, not per search


def test_prepared_statements_can_be_turned_off_for_a_pooler():
    code = ("import django; django.setup(); from django.conf import settings; "
            "options = settings.DATABASES['default']['OPTIONS']; "
            "print(options['server_side_binding'], options['prepare_threshold'])")
    for value, expected in (("off", ["True", "None"]), ("5", ["True", "5"])):
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "recall_site.settings_test", "RECALL_DB_PREPARE_THRESHOLD": value}
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
        assert out.split() == expected


def test_a_statement_with_more_parameters_than_postgresql_binds_still_runs(db):
    from memories.models import Memory
    from tests import factories

    kept = factories.memory("alice", "Lunch with Sarah on Thursday")
    assert Memory.objects.filter(pk__in=[kept.pk, *range(-70_000, 0)]).count() == 1  # 70,001 parameters
