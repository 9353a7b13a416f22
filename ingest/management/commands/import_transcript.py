"""manage.py import_transcript FILE.jsonl --user-id ID: bulk-import a conversation transcript.

One JSON object per line: session_id, timestamp (ISO 8601), speaker, text, optional
id. The speaker is a role (user/human/me, assistant/system/tool) or a person's
name: a named speaker's line is remembered as that person's ("Caroline": her "I"
is Caroline, not the account's user), as an ingest message's `name` is. The
whole file is validated before anything is written; then each session's
messages go through the write pipeline (source `import`) in batches, with a
progress bar, and a summary of outcomes is printed, including how many memories
of each type arrived already expired (a transcript dated years ago) and when they
are purged. `--dry-run` runs the same pipeline in a transaction it rolls back:
the same summary, nothing written (ingest/expiry_preview.py).
"""
import json
from collections import Counter
from contextlib import nullcontext

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils.dateparse import parse_datetime
from django.utils.timezone import is_naive, make_aware
from tqdm import tqdm

from ingest.expiry_preview import expiry_summary
from ingest.pipeline import ingest_messages
from ingest.pipeline.base import EXPIRED_ON_ARRIVAL, PipelineTrace
from memories.models import Source

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
        parser.add_argument("--dry-run", action="store_true",
                            help="Say what the import would keep and what would arrive expired; write nothing.")

    def handle(self, *args, path, user_id, no_progress=False, dry_run=False, **options):
        lines = read_transcript(path)
        totals, all_entries = Counter(), []
        with transaction.atomic() if dry_run else nullcontext():
            with tqdm(total=len(lines), unit="msg", disable=no_progress, file=self.stderr) as bar:
                for session_id, batch in session_batches(lines):
                    trace = ingest_messages(user_id=user_id, session_id=session_id, source=Source.IMPORT,
                                            actor="import_transcript", messages=batch)
                    totals.update(trace.counts)
                    totals["memories"] += len(set(trace.memory_ids))
                    all_entries += trace.entries
                    bar.update(len(batch))
            if dry_run:
                transaction.set_rollback(True)
        totals.pop(EXPIRED_ON_ARRIVAL, 0)
        summary = ", ".join(f"{name} {count}" for name, count in totals.items() if name != "memories")
        verb = "Would import" if dry_run else "Imported"
        self.stdout.write(f"{verb} {len(lines)} messages for user {user_id}: {summary}; "
                          f"{totals['memories']} memories written or reinforced.")
        expiry = expiry_summary(PipelineTrace(user_id, "", Source.IMPORT, all_entries))
        for kind, counted in expiry["by_type"].items():
            self.stdout.write(f"  {kind}: {counted['memories']} memories, {counted['expired_on_arrival']} "
                              f"arriving already expired")
        if expiry["purged_on"]:
            self.stdout.write(f"Expired on arrival means: {expiry['policy']}. Those would be purged on "
                              f"{expiry['purged_on']}." if dry_run else f"Expired on arrival means: "
                              f"{expiry['policy']}. They are purged on {expiry['purged_on']}.")
        if dry_run:
            self.stdout.write("Dry run: nothing was written.")


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
