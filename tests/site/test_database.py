"""Migrations give a real PostgreSQL with pgvector and the indexes search relies on."""
from django.db import connection


def _indexes(table):
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexname, indexdef FROM pg_indexes WHERE tablename = %s", [table])
        return dict(cursor.fetchall())


def test_vector_extension_is_installed(db):
    with connection.cursor() as cursor:
        cursor.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
        assert cursor.fetchone() is not None


# The full-text indexes hold each memory's words with its user's token (memories/user_words.py).
WORDS_INDEX = "USING gin (((search_vector || array_to_tsvector(ARRAY[('@'::text || (user_id)::text)]))))"


def test_memory_table_has_hnsw_gin_and_btree_indexes(db):
    indexes = _indexes("memories_memory")
    assert "USING hnsw (embedding vector_cosine_ops)" in indexes["memory_embedding_hnsw"]
    assert WORDS_INDEX in indexes["memory_words"]
    assert "(user_id, type, status)" in indexes["memory_user_type_status"]
    assert "(user_id, session_id)" in indexes["memory_user_session"]


def test_narrow_query_domains_have_partial_vector_and_full_text_indexes_over_the_domains_they_read(db):
    from memories.models import ALLOWED_DOMAINS, GATED_INDEX_DOMAINS, Domain

    indexes = _indexes("memories_memory")
    assert not any(name.endswith("_personal") for name in indexes)  # the broad gate uses the full indexes
    for query_domain in GATED_INDEX_DOMAINS:
        domains = ALLOWED_DOMAINS[query_domain]
        for name, method in ((f"memory_hnsw_{query_domain}", "USING hnsw (embedding vector_cosine_ops)"),
                             (f"memory_words_{query_domain}", WORDS_INDEX)):
            definition = indexes[name]
            assert method in definition
            predicate = definition.split(" WHERE ", 1)[1]
            assert {d for d in Domain.values if f"'{d}'" in predicate} == {str(d) for d in domains}, definition


def test_full_text_vector_follows_content(db):
    from tests.factories import memory

    row = memory(content="Sarah is training for the Berlin marathon")
    with connection.cursor() as cursor:
        cursor.execute("SELECT search_vector @@ plainto_tsquery('english', 'marathon') FROM memories_memory WHERE id = %s", [row.pk])
        assert cursor.fetchone()[0] is True


def test_the_embedded_server_runs_with_the_tuned_settings(db):
    import os

    import pytest

    from recall_site.embedded_db import SERVER_SETTINGS

    if os.environ.get("DATABASE_URL"):
        pytest.skip("an external PostgreSQL is tuned by its operator")
    with connection.cursor() as cursor:
        for name, value in SERVER_SETTINGS.items():
            cursor.execute("SELECT current_setting(%s)", [name])
            assert cursor.fetchone()[0] == value, name


def test_timestamps_read_back_as_the_aware_datetimes_written(db):
    from datetime import datetime, timedelta, timezone

    from psycopg.pq import Format

    from memories.models import Memory
    from recall_site.timestamps import TIMESTAMPTZ
    from tests.factories import memory

    written = datetime(2026, 3, 29, 1, 30, 15, 123456, tzinfo=timezone(timedelta(hours=2)))
    row = memory(content="Sarah moved to Lisbon")
    Memory.objects.filter(pk=row.pk).update(last_reinforced_at=written, valid_to=None)
    loaded = Memory.objects.get(pk=row.pk)
    assert loaded.last_reinforced_at == written
    assert loaded.last_reinforced_at.utcoffset() == timedelta(0)
    assert loaded.valid_to is None
    with connection.cursor() as cursor:
        cursor.execute("SELECT last_reinforced_at FROM memories_memory WHERE id = %s", [row.pk])
        assert cursor.fetchone()[0] == written
        # ... parsed by psycopg's C loader (recall_site.timestamps), not Django's pure-Python one
        loader = cursor.cursor.adapters.get_loader(TIMESTAMPTZ, Format.TEXT)
        assert loader.__module__ == "recall_site.timestamps"


def test_the_embedded_servers_list_of_users_drops_the_dead_the_zombies_and_a_half_written_list(tmp_path):
    """A killed run leaves dead processes (zombies where nothing reaps them) or a half-written list in
    pgserver's list of the server's users: none of them may keep Ctrl-C from stopping the server, nor
    the next start from starting."""
    import json
    import os
    import subprocess
    import sys

    from recall_site.embedded_db import USERS_FILE, _live_users

    users = tmp_path / USERS_FILE
    users.write_text("")  # killed between truncating and writing
    assert _live_users(tmp_path) == [] and json.loads(users.read_text()) == []

    zombie = subprocess.Popen([sys.executable, "-c", "pass"])
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    os.waitid(os.P_PID, zombie.pid, os.WEXITED | os.WNOWAIT)  # exited, not reaped: a zombie
    users.write_text(json.dumps([os.getpid(), zombie.pid, dead.pid]))
    try:
        assert _live_users(tmp_path) == [os.getpid()]
        assert json.loads(users.read_text()) == [os.getpid()]
    finally:
        zombie.wait()
