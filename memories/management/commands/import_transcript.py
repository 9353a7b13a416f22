"""manage.py import_transcript FILE.jsonl --user-id ID: bulk-import a conversation transcript.

One JSON object per line: session_id, timestamp (ISO 8601), speaker, text, optional
id. The speaker is a role (user/human/me, assistant/system/tool) or a person's
name: a named speaker's line is remembered as that person's ("Caroline": her "I"
is Caroline, not the account's user), as an ingest message's `name` is. The
whole file is validated before anything is written; then each session's
messages go through the write pipeline (source `import`) in batches, with a
progress bar, and a summary of outcomes is printed, including how many memories
arrived already expired (a transcript dated years ago).
"""
import json
from collections import Counter

from django.core.management.base import BaseCommand, CommandError
from django.utils.dateparse import parse_datetime
from django.utils.timezone import is_naive, make_aware
from tqdm import tqdm

from memories.models import Source
from memories.pipeline import ingest_messages
from memories.pipeline.base import EXPIRED_ON_ARRIVAL
from recall_site.config import recall_setting

BATCH_SIZE = 64
REQUIRED = ("session_id", "timestamp", "speaker", "text")
ROLES = {"user": "user", "human": "user", "me": "user", "assistant": "assistant", "ai": "assistant",
         "bot": "assistant", "system": "system", "tool": "tool"}


class Command(BaseCommand):
    help = "Import a JSONL conversation transcript through the write pipeline."

    def add_arguments(self, parser):
        parser.add_argument("path")
        parser.add_argument("--user-id", required=True)
        parser.add_argument("--no-progress", action="store_true", help="Hide the progress bar.")

    def handle(self, *args, path, user_id, no_progress=False, **options):
        lines = read_transcript(path)
        totals = Counter()
        with tqdm(total=len(lines), unit="msg", disable=no_progress, file=self.stderr) as bar:
            for session_id, batch in session_batches(lines):
                trace = ingest_messages(user_id=user_id, session_id=session_id, source=Source.IMPORT,
                                        actor="import_transcript", messages=batch)
                totals.update(trace.counts)
                totals["memories"] += len(set(trace.memory_ids))
                bar.update(len(batch))
        expired = totals.pop(EXPIRED_ON_ARRIVAL, 0)
        summary = ", ".join(f"{name} {count}" for name, count in totals.items() if name != "memories")
        self.stdout.write(f"Imported {len(lines)} messages for user {user_id}: {summary}; "
                          f"{totals['memories']} memories written or reinforced.")
        if expired:
            days = recall_setting("decay.expired_retention_days")
            self.stdout.write(f"{expired} of them arrived already expired: their dates are too old for their "
                              f"half-lives, so search will not return them (restorable for {days} days).")


def read_transcript(path: str) -> list[dict]:
    """Parse and validate every line first, so a bad line aborts before anything is written."""
    try:
        with open(path, encoding="utf-8") as handle:
            raw_lines = [line for line in handle if line.strip()]
    except OSError as error:
        raise CommandError(f"Cannot read {path}: {error}") from error
    return [_message(number, line) for number, line in enumerate(raw_lines, start=1)]


def _message(number: int, line: str) -> dict:
    try:
        row = json.loads(line)
    except json.JSONDecodeError as error:
        raise CommandError(f"line {number}: not valid JSON ({error.msg})") from error
    missing = [key for key in REQUIRED if not isinstance(row, dict) or not row.get(key)]
    if missing:
        raise CommandError(f"line {number}: missing {', '.join(missing)}")
    timestamp = parse_datetime(str(row["timestamp"]))
    if timestamp is None:
        raise CommandError(f"line {number}: timestamp {row['timestamp']!r} is not ISO 8601")
    speaker = str(row["speaker"]).strip()
    role = ROLES.get(speaker.lower())
    return {
        "session_id": str(row["session_id"]), "role": role or "user", "name": "" if role else speaker,
        "content": str(row["text"]), "timestamp": make_aware(timestamp) if is_naive(timestamp) else timestamp,
        "id": str(row.get("id") or ""),
    }


def session_batches(lines: list[dict]):
    """(session_id, up to BATCH_SIZE messages) in file order."""
    batch, session_id = [], None
    for line in lines:
        if batch and (line["session_id"] != session_id or len(batch) >= BATCH_SIZE):
            yield session_id, batch
            batch = []
        session_id = line["session_id"]
        batch.append(line)
    if batch:
        yield session_id, batch
