"""Shared types of the write pipeline: messages in, candidates between stages, the trace out.

Stages share one small interface (`Stage.run(item, context)`), paperless-style: each
mutates the `WorkItem` of one message and may raise `Rejected` to stop that message
early. A stage says where it runs (`in_transaction`: per message inside its write
transaction, or over the whole batch before any write) and whether it applies to a
run (`applies`: remember_memory's given candidate skips pre_filter and extract).
Stages that can batch work across messages (tag_domain embeds all candidates in one
call) override `run_batch`.
"""
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any

from recall_site.config import recall_setting


class Outcome:
    STORED = "stored"
    REINFORCED = "reinforced"
    SUPERSEDED = "superseded"
    REVIEW = "sent_to_review"
    REJECTED = "rejected"

    # A message's headline outcome is the most significant of its candidates' outcomes.
    PRIORITY = (SUPERSEDED, STORED, REINFORCED, REVIEW, REJECTED)


# Trace count of memories whose date put them below the retrieval floor as they were written (an old transcript).
EXPIRED_ON_ARRIVAL = "expired_on_arrival"


class Rejected(Exception):
    """Stop processing one message (or one candidate) with a reason the trace reports."""

    def __init__(self, stage: str, reason: str, score: float = 0.0):
        super().__init__(f"{stage}: {reason}")
        self.stage, self.reason, self.score = stage, reason, score


@dataclass
class Message:
    content: str
    timestamp: datetime
    id: str = ""
    role: str = "user"
    # Who says "I" in a transcript line ("Caroline: I went…"); empty means the account's user.
    speaker: str = ""
    # Whom a speaker's line answers: the other speaker of the line before it in the batch, if named.
    addressee: str = ""
    # What the names this message gives are, when it answers "what are their names?" (name_answers.py).
    names_answer: str = ""
    # The id of the message before it from the other side: the user turn an assistant message answers.
    in_reply_to: str = ""


@dataclass
class Mention:
    """A reference to a person, place, org or the user, as written; `entity` is set by resolve_refs."""

    text: str
    kind: str = "person"  # self | person | org | place | thing
    role: str = "mention"  # subject | object | mention (the MemoryEntity role)
    role_phrase: str = ""  # "my manager": becomes a role alias of the named entity
    entity: Any = None
    ambiguous: bool = False
    # An unnamed person known by a role of someone ("my mom", "Melanie's husband"): whose, and how related.
    owner: "Mention | None" = None
    role_predicate: str = ""
    owner_is_subject: bool = False  # "Jon works_at Jon's studio"; a person's role points at the owner
    role_forms: tuple = ()  # every way of saying the same role of the owner ("my husband", "my partner", …)
    # A named person who holds such a role ("my husband Tom"): the unnamed node it becomes, if there is one.
    names_role: str = ""
    node_at_once: bool = False  # the role phrase already means one particular holder ("my son", "I joined a gym")
    node_aliases: tuple = ()  # more names for a new unnamed node ("Jon's studio" for "Jon's dance studio")


def first_person(message: Message, role: str = "subject") -> Mention:
    """Who "I", "me" and "my" are: the message's speaker as a person, else the user's own self entity."""
    if message.speaker:
        return Mention(message.speaker, kind="person", role=role)
    return Mention("me", kind="self", role=role)


def default_confidence(memory_type: str) -> float:
    """How sure a plainly stated memory of this type is (`memory.preference_confidence` /
    `memory.stated_confidence`); extractors and remember_memory start from it."""
    key = "memory.preference_confidence" if memory_type == "preference" else "memory.stated_confidence"
    return float(recall_setting(key))


def default_importance(kind: str) -> float:
    """`memory.importance` of a memory type or kind ("inferred", "relation", …)."""
    return float(recall_setting("memory.importance").get(kind, 0.5))


def as_said(message: Message, text: str) -> str:
    """Words of the message with its speaker's name in front ("Caroline: I went…"), so they stay hers and stay
    findable by her name; the user's own words as they are."""
    return f"{message.speaker}: {text}" if message.speaker else text


@dataclass
class RelationSpec:
    subject: Mention
    predicate: str
    object: Mention


@dataclass
class Candidate:
    """One memory the pipeline may write. Stages fill the fields after `details` in order."""

    type: str
    content: str
    confidence: float
    importance: float
    mentions: list[Mention] = field(default_factory=list)
    subject: Mention | None = None
    attribute: str = ""
    relation: RelationSpec | None = None
    valid_from: datetime | None = None
    half_life_days: float | None = None
    domain: str = ""  # an extractor may hint it; tag_domain decides otherwise
    sensitive: bool = False
    needs_review: bool = False
    review_reason: str = ""
    pinned: bool = False
    scope: str = "user_global"
    source: str = ""
    details: dict = field(default_factory=dict)
    # reconcile: "create", "reinforce" (existing) or "pattern" (infer updates existing)
    action: str = "create"
    existing: Any = None
    supersedes: list = field(default_factory=list)
    rejected: "Rejected | None" = None  # refused by a stage (the auto-memory policy): reported, not written


@dataclass
class CandidateResult:
    outcome: str
    stage: str
    reason: str
    type: str
    content: str
    confidence: float  # the memory's confidence after this message (the candidate's, if nothing was written)
    score: float  # the same number: its older name, kept for existing clients
    memory_id: int | None = None
    domain: str = ""
    superseded_ids: list[int] = field(default_factory=list)
    expired: bool = False  # its date put it below the retrieval floor at once: stored, but expired


@dataclass
class TraceEntry:
    message_id: str
    role: str
    outcome: str
    stage: str
    reason: str
    score: float
    results: list[CandidateResult] = field(default_factory=list)


@dataclass
class PipelineTrace:
    user_id: str
    session_id: str
    source: str
    entries: list[TraceEntry] = field(default_factory=list)

    @property
    def counts(self) -> dict[str, int]:
        """Messages per headline outcome, and how many memories arrived already expired."""
        counts = {name: 0 for name in Outcome.PRIORITY}
        for entry in self.entries:
            counts[entry.outcome] += 1
        counts[EXPIRED_ON_ARRIVAL] = sum(r.expired for e in self.entries for r in e.results)
        return counts

    @property
    def memory_ids(self) -> list[int]:
        return [r.memory_id for e in self.entries for r in e.results if r.memory_id]

    def as_dict(self) -> dict:
        return {
            "user_id": self.user_id, "session_id": self.session_id, "source": self.source,
            "counts": self.counts, "messages": [asdict(entry) for entry in self.entries],
        }


@dataclass
class IngestContext:
    user_id: str
    session_id: str
    source: str
    actor: str
    self_entity: Any = None  # the user's own entity, looked up on first use in a run (resolve_refs.user_self)
    known_names: frozenset = frozenset()  # names a sentence may start with (extract reads them for the batch)
    # remember_memory: the candidate is given (what to remember, as said), not extracted from a message.
    explicit: bool = False
    # Called with a message's work item and trace entry inside its write transaction, after its writes
    # (a background ingest job records its progress there, ingest/jobs.py); may raise Rejected.
    on_written: Callable[["WorkItem", TraceEntry], None] | None = None


@dataclass
class WorkItem:
    """One message on its way through the stages."""

    message: Message
    relevance: float = 0.0
    answers: bool = False  # replies to a question in the message before it (pre_filter reads the dialogue)
    candidates: list[Candidate] = field(default_factory=list)
    results: list[CandidateResult] = field(default_factory=list)
    rejection: Rejected | None = None


class Stage:
    name = ""
    in_transaction = True  # False: runs over the batch, before any database write

    def applies(self, context: IngestContext) -> bool:
        return True

    def run(self, item: WorkItem, context: IngestContext) -> None:
        raise NotImplementedError

    def run_batch(self, items: list[WorkItem], context: IngestContext) -> None:
        for item in items:
            if item.rejection is None:
                try:
                    self.run(item, context)
                except Rejected as rejected:
                    item.rejection = rejected
