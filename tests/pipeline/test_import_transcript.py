"""manage.py import_transcript: a JSONL transcript through the pipeline, with a summary; bad files write nothing."""
import json

import pytest
from django.core.management import CommandError, call_command

from entities.models import Entity
from memories.models import Memory

LINES = [
    {"session_id": "day-1", "timestamp": "2026-11-30T09:00:00+00:00", "speaker": "user", "text": "I work at Volkswagen", "id": "a1"},
    {"session_id": "day-1", "timestamp": "2026-11-30T09:00:05+00:00", "speaker": "assistant", "text": "Noted! I prefer tea."},
    {"session_id": "day-1", "timestamp": "2026-11-30T09:01:00+00:00", "speaker": "user", "text": "ha that's funny"},
    {"session_id": "day-2", "timestamp": "2026-12-01T09:00:00+00:00", "speaker": "user", "text": "lunch with Sarah Thursday"},
    {"session_id": "day-3", "timestamp": "2026-12-02T09:00:00+00:00", "speaker": "user", "text": "I work at Volkswagen"},
]


def write(tmp_path, lines):
    path = tmp_path / "transcript.jsonl"
    path.write_text("\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines) + "\n")
    return str(path)


def test_import_runs_every_message_through_the_pipeline(db, tmp_path, capsys):
    call_command("import_transcript", write(tmp_path, LINES), "--user-id", "alice")
    out, err = capsys.readouterr()
    assert "Imported 5 messages for user alice" in out
    assert "stored 2" in out and "reinforced 1" in out and "rejected 2" in out
    assert "5/5" in err  # the progress bar
    rows = Memory.objects.filter(user_id="alice").order_by("pk")
    assert [(m.content, m.session_id, m.source) for m in rows] == [
        ("Works at Volkswagen", "day-1", "import"), ("Lunch with Sarah Thursday", "day-2", "import")]
    assert rows[0].occurrences == 2 and rows[0].source_message_ids[0] == "a1"
    assert rows[1].valid_from.date().isoformat() == "2026-12-03"


def test_a_named_speakers_lines_are_remembered_as_theirs(db, tmp_path):
    line = {"session_id": "day-1", "timestamp": "2026-11-30T09:00:00+00:00", "speaker": "Caroline",
            "text": "I went to a LGBTQ support group yesterday and it was so powerful."}
    call_command("import_transcript", write(tmp_path, [line]), "--user-id", "alice", "--no-progress")
    memory = Memory.objects.get()
    assert memory.content == "Caroline: I went to a LGBTQ support group yesterday and it was so powerful."
    assert memory.subject.canonical_name == "Caroline"


def test_a_transcript_from_years_ago_says_its_memories_arrived_expired(db, tmp_path, capsys):
    old = [{"session_id": "s1", "timestamp": "2023-05-08T13:56:00+00:00", "speaker": "Caroline",
            "text": "I went to a LGBTQ support group yesterday and it was so powerful."},
           {"session_id": "s1", "timestamp": "2023-05-08T13:57:00+00:00", "speaker": "Caroline",
            "text": "I just moved to Lisbon for a new job."}]
    call_command("import_transcript", write(tmp_path, old), "--user-id", "alice", "--no-progress")
    out = capsys.readouterr().out
    expired = Memory.objects.filter(user_id="alice", status="expired")
    assert sorted(m.content for m in expired) == [
        "Caroline: I just moved to Lisbon for a new job.",
        "Caroline: I went to a LGBTQ support group yesterday and it was so powerful."]
    assert "event: 2 memories, 2 arriving already expired" in out and "They are purged on" in out
    # A biographical fact decays over 365 days: three and a half years on it is faint but not gone.
    assert Memory.objects.get(user_id="alice", status="active").content == "Caroline lives in Lisbon"
    assert all(memory.expired_at is not None for memory in expired)  # kept for the recovery window, then purged


def test_an_ingest_trace_counts_memories_that_arrive_expired(alice_api):
    response = alice_api.post("/api/v1/ingest", {"user_id": "alice", "session_id": "s1", "messages": [
        {"role": "user", "content": "I went hiking in the Alps with my sister Emma",
         "timestamp": "2022-06-01T10:00:00Z"},
        {"role": "user", "content": "I went hiking in the Dolomites with my brother Tom"}]}, format="json")
    trace = response.json()
    assert trace["counts"]["expired_on_arrival"] >= 1
    old, new = trace["messages"]
    assert all(result["expired"] for result in old["results"])
    assert not any(result["expired"] for result in new["results"])
    found = alice_api.post("/api/v1/search", {"query": "hiking with my sister", "scope": {"user_id": "alice"}},
                           format="json").json()["results"]
    assert "Alps" not in " ".join(hit["content"] for hit in found)


@pytest.mark.parametrize("bad_line, message", [
    ("{not json", "line 3: not valid JSON"),
    (json.dumps({"session_id": "x", "timestamp": "2026-11-30T09:00:00Z", "speaker": "user"}), "line 3: missing text"),
    (json.dumps({"session_id": "x", "timestamp": "last tuesday", "speaker": "user", "text": "hi"}), "not ISO 8601"),
])
def test_a_bad_line_aborts_before_anything_is_written(db, tmp_path, bad_line, message):
    with pytest.raises(CommandError, match=message):
        call_command("import_transcript", write(tmp_path, LINES[:2] + [bad_line]), "--user-id", "alice")
    assert not Memory.objects.exists()


def test_a_dry_run_says_what_would_expire_and_writes_nothing(db, tmp_path, capsys):
    old = [{"session_id": "s1", "timestamp": "2023-05-08T13:56:00+00:00", "speaker": "Caroline",
            "text": "I went to a LGBTQ support group yesterday and it was so powerful."},
           {"session_id": "s1", "timestamp": "2023-05-08T13:57:00+00:00", "speaker": "Caroline",
            "text": "I just moved to Lisbon for a new job."}]
    call_command("import_transcript", write(tmp_path, old), "--user-id", "alice", "--no-progress", "--dry-run")
    out = capsys.readouterr().out
    assert "Would import 2 messages" in out and "event: 2 memories, 2 arriving already expired" in out
    assert "Those would be purged on" in out and "Dry run: nothing was written." in out
    assert not Memory.objects.exists() and not Entity.objects.exists()
