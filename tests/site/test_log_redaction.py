"""No user content in logs: an ingest, searches, a forget and failed profile updates leave none of their
texts in any log record, with every logger at DEBUG and SQL logging on, nor in the embedded PostgreSQL
server's log. Works with and without pytest's logging plugin (`-p no:logging`): the records are caught by
a handler of our own."""
import json
import logging
import os
from io import StringIO

import pytest
from django.db import connection, transaction

from recall_site.log_redaction import redact_text

SECRETS = ("Zorblatt", "Quennington", "Vexmoor", "Plimwick")


@pytest.fixture
def server_log(settings):
    """What the embedded PostgreSQL server logs during the test ("" with an external server)."""
    path = settings.VAR_DIR / "pgdata" / "log"
    start = path.stat().st_size if path.is_file() and not os.environ.get("DATABASE_URL") else None
    yield lambda: "" if start is None else path.read_bytes()[start:].decode(errors="replace")


@pytest.fixture
def captured_logs():
    """Every record of every logger, at DEBUG, formatted with tracebacks; SQL logging on."""
    stream = StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(name)s %(levelname)s %(message)s"))
    loggers = [logging.getLogger()] + [item for item in logging.Logger.manager.loggerDict.values()
                                       if isinstance(item, logging.Logger)]
    saved = [(logger, logger.level) for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.DEBUG)
        if logger is loggers[0] or not logger.propagate:
            logger.addHandler(handler)
    connection.force_debug_cursor = True
    yield stream
    connection.force_debug_cursor = False
    for logger, level in saved:
        logger.setLevel(level)
        logger.removeHandler(handler)


def test_ingest_search_forget_and_failed_profile_updates_log_no_user_text(
        alice_api, alice_client, captured_logs, server_log, django_capture_on_commit_callbacks):
    alice_api.raise_request_exception = False
    messages = [{"role": "user", "content": text, "timestamp": "2026-11-30T10:00:00Z"} for text in (
        "My colleague Zorblatt Quennington lives in Vexmoor", "Zorblatt prefers Plimwick tea in the morning")]
    with django_capture_on_commit_callbacks(execute=True):
        ingest = alice_api.post("/api/v1/ingest", {"user_id": "alice", "session_id": "s-Vexmoor",
                                                   "messages": messages}, format="json")
    assert ingest.status_code == 200, ingest.content
    assert alice_api.post("/api/v1/search", {"query": "where does Zorblatt Quennington live",
                                             "scope": {"user_id": "alice"}}, format="json").status_code == 200
    assert "Vexmoor" in alice_client.post("/memories/", {"q": "Zorblatt Vexmoor"}).content.decode()
    alice_api.get("/api/v1/entities", {"user_id": "alice", "q": "Quennington"})
    failed = alice_api.post("/api/v1/update_user_profile", {"user_id": "alice", "favorites": {
        "Plimwick\u0000tea": "Zorblatt\u0000Vexmoor"}}, format="json")
    assert failed.status_code >= 400
    assert alice_client.post("/profile/", {"name": "Zorblatt", "assistant_name": "Theo",
                                           "favorites": '{"Plimwick": '}).status_code in (200, 400)
    _log_a_database_error_as_the_pipeline_does()
    forget = alice_api.post("/api/v1/delete", {"scope": {"user_id": "alice"},
                                               "filter": {"source_session": "s-Vexmoor", "hard": True}},
                            format="json")
    assert forget.status_code == 200, forget.content
    logs = captured_logs.getvalue()
    assert "SELECT" in logs and "memories_memory" in logs  # SQL was logged, in its redacted form
    logs += server_log()  # and the database server's own log: terse errors, no statements
    leaks = [line for line in logs.splitlines() if any(secret.lower() in line.lower() for secret in SECRETS)]
    assert leaks == []


def _log_a_database_error_as_the_pipeline_does():
    """A real PostgreSQL error whose CONTEXT line quotes the input, logged with its traceback."""
    payload = json.dumps({SECRETS[1] + "\u0000": SECRETS[2]})  # not in this source: tracebacks quote it
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SELECT %s::jsonb", [payload])
    except Exception:
        logging.getLogger("ingest.pipeline").exception("pipeline failed at persist for message m1")
    else:
        raise AssertionError("the query should have failed")


def test_runserver_access_lines_lose_their_query_string(captured_logs):
    logging.getLogger("django.server").info('"%s" %s %s', "GET /entities/?q=Zorblatt+Quennington HTTP/1.1",
                                            "200", "1234")
    assert '"GET /entities/?… HTTP/1.1" 200 1234' in captured_logs.getvalue()
    assert "Zorblatt" not in captured_logs.getvalue()


def test_database_detail_lines_and_their_continuations_are_dropped():
    text = ("Traceback (most recent call last):\n  File \"x.py\", line 1\n"
            "psycopg.errors.UniqueViolation: duplicate key value violates unique constraint \"entity_live\"\n"
            "DETAIL:  Key (user_id, name)=(alice, zorblatt) already exists.\n"
            "CONTEXT:  PL/pgSQL function f() line 3\n  SQL statement \"INSERT ... 'Vexmoor'\"\n\n"
            "The above exception was the direct cause of the following exception:\n")
    clean = redact_text(text)
    assert "duplicate key value violates unique constraint" in clean and "The above exception" in clean
    assert "zorblatt" not in clean and "Vexmoor" not in clean and "DETAIL" not in clean


def test_one_structured_line_per_request_with_no_content(alice_api, alice_client, captured_logs):
    alice_api.post("/api/v1/search", {"query": "where does Zorblatt live", "scope": {"user_id": "alice"}},
                   format="json")
    alice_client.get("/memories/?q=Quennington")
    lines = [json.loads(line.split(" INFO ", 1)[1]) for line in captured_logs.getvalue().splitlines()
             if line.startswith("recall.request INFO ")]
    assert [(line["method"], line["path"], line["status"], line["user_id"]) for line in lines] == [
        ("POST", "/api/v1/search", 200, "alice"), ("GET", "/memories/", 200, "alice")]
    assert all(line["ms"] > 0 for line in lines)
    assert not [secret for secret in SECRETS if secret in captured_logs.getvalue()]


def test_uvicorn_access_lines_keep_their_shape_and_lose_their_query_string(captured_logs):
    from uvicorn.logging import AccessFormatter

    logger = logging.getLogger("uvicorn.access")
    logger.info('%s - "%s %s HTTP/%s" %d', "127.0.0.1:5000", "GET", "/mcp?user_id=alice&q=Zorblatt", "1.1", 200)
    record = logger.makeRecord("uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
                               ("127.0.0.1:5000", "GET", "/api/v1/memories?q=Vexmoor", "1.1", 200), None)
    line = AccessFormatter('%(client_addr)s - "%(request_line)s" %(status_code)s').format(record)
    assert line == '127.0.0.1:5000 - "GET /api/v1/memories?… HTTP/1.1" 200 OK'
    assert "Zorblatt" not in captured_logs.getvalue() and "/mcp?…" in captured_logs.getvalue()


def test_an_exception_argument_loses_its_database_detail(captured_logs):
    error = RuntimeError('duplicate key\nDETAIL:  Key (name)=(Plimwick) already exists.')
    logging.getLogger("recall.test").error("write failed: %s", error)
    assert "write failed: duplicate key" in captured_logs.getvalue() and "Plimwick" not in captured_logs.getvalue()
