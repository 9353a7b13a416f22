"""Start the embedded PostgreSQL 16 + pgvector (pgserver) when no DATABASE_URL is set."""
import warnings
from pathlib import Path

DATABASE_NAME = "recall"


def embedded_database_settings(data_dir: Path) -> dict:
    """Start (or attach to) the pgserver instance in `data_dir` and return Django DB settings."""
    # platformdirs warns that XDG_RUNTIME_DIR is unset on headless machines; harmless here.
    warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")
    import pgserver

    data_dir.mkdir(parents=True, exist_ok=True)
    server = pgserver.get_server(data_dir, cleanup_mode="stop")
    exists = server.psql(f"SELECT 1 FROM pg_database WHERE datname = '{DATABASE_NAME}';")
    if "(1 row)" not in exists:
        server.psql(f"CREATE DATABASE {DATABASE_NAME};")
    socket_dir = server.get_uri().split("host=", 1)[1]
    # Keep a reference so the server is not stopped while this process lives.
    embedded_database_settings.server = server
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": DATABASE_NAME,
        "USER": "postgres",
        "PASSWORD": "",
        "HOST": socket_dir,
        "PORT": "",
        "CONN_MAX_AGE": 60,
    }
