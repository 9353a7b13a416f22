"""Keep what users said out of the logs, whichever logger or handler a record goes to.

`configure` (Django's LOGGING_CONFIG) installs `redacted_record` as the log
record factory before applying LOGGING, so every record made in the process is
cleaned once, at birth:

- query strings are cut from URLs: "GET /entities/?q=sarah HTTP/1.1" (runserver's
  access log) becomes "GET /entities/?… HTTP/1.1";
- PostgreSQL's DETAIL, CONTEXT, HINT, QUERY, STATEMENT and LINE lines, which quote
  the failing values ("Key (name)=(emma larsson) already exists", "JSON data,
  line 1: {…"), are dropped from messages and from tracebacks;
- SQL logged by django.db.backends (DEBUG on and LOG_LEVEL=DEBUG) keeps its
  shape, with string literals shown as '…' and no parameters;
- django.template's DEBUG records of a failed variable lookup lose their
  exception, which prints the whole template context (the page's data).
"""
import logging
import logging.config
import re
import traceback

_URL_QUERY = re.compile(r"(/[^\s?\"']*)\?[^\s\"']+")
_DATABASE_LINE = re.compile(r"\s*(DETAIL|CONTEXT|HINT|QUERY|STATEMENT|LINE \d+):")
_TRACEBACK_LINE = ("Traceback", "The above exception", "During handling")
_SQL_LITERAL = re.compile(r"(?:[EeUu]&?|[BbXx])?'(?:[^']|'')*'")
_SQL_LOGGER = "django.db.backends"
_TEMPLATE_LOGGER = "django.template"
_make_record = logging.getLogRecordFactory()


def configure(logging_settings: dict) -> None:
    if logging.getLogRecordFactory() is not redacted_record:
        global _make_record
        _make_record = logging.getLogRecordFactory()
        logging.setLogRecordFactory(redacted_record)
    logging.config.dictConfig(logging_settings)


def redacted_record(*args, **kwargs) -> logging.LogRecord:
    record = _make_record(*args, **kwargs)
    if record.name == _SQL_LOGGER and isinstance(record.args, tuple) and len(record.args) == 4:
        duration, sql, _params, alias = record.args
        record.args = (duration, _SQL_LITERAL.sub("'…'", str(sql)), "…", alias)
    if isinstance(record.args, tuple) and record.args:
        # Clean each argument and keep the shape: formatters such as uvicorn's access log unpack the args.
        record.args = tuple(arg if arg is None or isinstance(arg, (int, float)) else redact_text(str(arg))
                            for arg in record.args)
        if isinstance(record.msg, str):
            record.msg = redact_text(record.msg)
        return _without_traceback_details(record)
    try:
        message = record.getMessage()
    except Exception:  # noqa: BLE001 - a malformed record: leave it for logging's own error report
        return record
    clean = redact_text(message)
    if clean != message:
        record.msg, record.args = clean, ()
    return _without_traceback_details(record)


def _without_traceback_details(record: logging.LogRecord) -> logging.LogRecord:
    if record.name == _TEMPLATE_LOGGER:  # a failed variable lookup dumps the whole template context
        record.exc_info = record.exc_text = None
    if record.exc_info and record.exc_info[1] is not None:
        record.exc_text = redact_text("".join(traceback.format_exception(*record.exc_info)).rstrip("\n"))
    return record


def redact_text(text: str) -> str:
    """`text` without URL query strings and without PostgreSQL's detail lines (and their continuations)."""
    kept, dropping = [], False
    for line in _URL_QUERY.sub(r"\1?…", text).split("\n"):
        if _DATABASE_LINE.match(line):
            dropping = True
        elif dropping and line.strip() and not line.startswith(_TRACEBACK_LINE):
            continue
        else:
            dropping = False
            kept.append(line)
    return "\n".join(kept)
