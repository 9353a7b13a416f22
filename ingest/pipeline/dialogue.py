"""The message before: what pre_filter knows of the dialogue a message replies to.

Within one ingest call it is the message before in the batch. For the first message of a call it is the
session's last ingested message, kept as a `SessionDialogue` row (a digest of who said it, whether it
asked something, and when; none of its words), so an assistant that sends each turn as it happens is read
as an import of the whole session would be. A message replies to the one before when that one asked
something, someone else said it (the assistant, the other speaker), and it came first.
"""
import hashlib
from dataclasses import dataclass
from datetime import datetime

from django.db import connection

from ingest.pipeline.base import Message
from memories.models import SessionDialogue

DIGEST_CHARS = 16


@dataclass(frozen=True)
class Said:
    said_by: str  # a digest of (role, speaker)
    asked: bool
    at: datetime


SPEAKING_ROLES = ("user", "assistant")  # a system prompt or a tool's output asks nobody anything


def said(message: Message) -> Said:
    asked = message.role in SPEAKING_ROLES and "?" in message.content
    return Said(speaker_digest(message), asked, message.timestamp)


def speaker_digest(message: Message) -> str:
    return hashlib.sha256(f"{message.role}\n{message.speaker}".encode()).hexdigest()[:DIGEST_CHARS]


def replies(previous: Said | None, current: Said) -> bool:
    """`current` answers a question in `previous`, said by someone else."""
    return previous is not None and previous.asked and previous.said_by != current.said_by


# Context, not a memory: losing the last swap to a crash costs one message's reading, so the statement does not
# wait for its WAL flush (synchronous_commit off for its own implicit transaction, set inside the statement: one
# round trip). `setting` is always read, so the answer is one row, the before columns NULL for a new session.
_SWAP = """
WITH setting AS MATERIALIZED (SELECT set_config('synchronous_commit', 'off', true)),
before AS (SELECT said_by, asked, at FROM "{table}" WHERE user_id = %(user_id)s AND session_id = %(session_id)s),
kept AS (
    INSERT INTO "{table}" (user_id, session_id, said_by, asked, at)
    VALUES (%(user_id)s, %(session_id)s, %(said_by)s, %(asked)s, %(at)s)
    ON CONFLICT (user_id, session_id) DO UPDATE SET said_by = EXCLUDED.said_by, asked = EXCLUDED.asked,
        at = EXCLUDED.at
    WHERE "{table}".at <= EXCLUDED.at
)
SELECT said_by, asked, at FROM setting LEFT JOIN before ON true
"""


def replies_in_batch(user_id: str, session_id: str, messages: list[Message]) -> list[bool]:
    """Per message: does it answer the message before it? For the first, that is the session's last message
    (unless it came later), and the batch's last takes its place unless a later one is kept already. One
    statement, outside the write transactions: it is context, not a memory."""
    spoken = [said(message) for message in messages]
    params = {"user_id": user_id, "session_id": session_id, **vars(spoken[-1])}
    with connection.cursor() as cursor:
        cursor.execute(_SWAP.format(table=SessionDialogue._meta.db_table), params)
        row = cursor.fetchone()
    before = Said(*row) if row[2] is not None and row[2] <= spoken[0].at else None
    return [replies(previous, current) for previous, current in zip([before, *spoken], spoken)]
