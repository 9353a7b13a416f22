"""Helpers for pipeline tests: messages at a fixed time and a one-call runner."""
from datetime import datetime, timedelta, timezone

import pytest

from ingest.pipeline import Message, run_pipeline

# A Monday, so "Thursday" is 3 days later.
MONDAY = datetime(2026, 11, 30, 10, 0, tzinfo=timezone.utc)


def message(text, *, at=MONDAY, id="", role="user", speaker=""):
    return Message(content=text, timestamp=at, id=id or f"m-{abs(hash((text, at))) % 10**8}", role=role,
                   speaker=speaker)


def ingest(*texts, user_id="alice", session_id="s1", source="import", at=MONDAY, role="user"):
    messages = [message(text, at=at + timedelta(seconds=i), role=role) for i, text in enumerate(texts)]
    return run_pipeline(user_id=user_id, session_id=session_id, messages=messages, source=source, actor="test")


@pytest.fixture
def run(db):
    return ingest
