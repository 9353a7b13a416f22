"""The 7-stage write pipeline: pre_filter → extract → tag_domain → resolve_refs → reconcile → infer → persist.

`STAGES` is the one ordered list; the auto-memory policy runs as a step just
before persist. `run_pipeline` runs the stages that work over the whole batch
(no database writes; tag_domain embeds in one call; an LLM extractor is called
here, outside any transaction), then each surviving message through the rest
inside its own transaction under the user's write lock, so a failure leaves
nothing of that message written. A stage that does not apply to a run is
skipped: remember_memory (`remember.py`) hands in its candidate and runs the same
list, without pre_filter, extract and infer. Embedding jobs of the memories
written are enqueued as one job, committed with the last message. It returns a `PipelineTrace` with
one entry per input message.
"""
import copy
import hashlib
import logging
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from audit.labels import AuditAction
from audit.services import audit_record
from ingest.pipeline.base import (
    IngestContext,
    Message,
    Outcome,
    PipelineTrace,
    Rejected,
    TraceEntry,
    WorkItem,
)
from ingest.pipeline.extract import Extract
from ingest.pipeline.infer import Infer
from ingest.pipeline.name_answers import names_answer
from ingest.pipeline.names_in_text import speaker_and_text
from ingest.pipeline.persist import Persist
from ingest.pipeline.policy import AutoMemoryPolicy, auto_memory_disabled
from ingest.pipeline.pre_filter import PreFilter
from ingest.pipeline.reconcile import Reconcile
from ingest.pipeline.resolve_refs import ResolveRefs
from ingest.pipeline.tag_domain import TagDomain
from ingest.secret_values import without_secrets
from memories.embedding_jobs import embedding_jobs_coalesced, enqueue_coalesced_job
from recall_site.locks import retry_on_conflict, user_write_lock
from recall_site.telemetry import INGEST_MESSAGES

logger = logging.getLogger(__name__)

STAGES = (PreFilter(), Extract(), TagDomain(), ResolveRefs(), Reconcile(), Infer(), AutoMemoryPolicy(), Persist())


def run_pipeline(*, user_id: str, session_id: str, messages: list[Message], source: str, actor: str,
                 on_written=None) -> PipelineTrace:
    context = IngestContext(user_id=user_id, session_id=session_id, source=source, actor=actor,
                            on_written=on_written)
    items = [WorkItem(message) for message in messages]
    if auto_memory_disabled(context):
        for item in items:
            item.rejection = Rejected("ingest", "auto_memory_disabled")
    run_stages(items, context)
    return PipelineTrace(user_id, session_id, source, [_trace_entry(item) for item in items])


def run_stages(items: list[WorkItem], context: IngestContext) -> None:
    """`STAGES` over these items: those that apply, the batch ones first, then each message's transaction."""
    stages = [stage for stage in STAGES if stage.applies(context)]
    for stage in stages:
        if not stage.in_transaction:
            stage.run_batch(items, context)
    batch_stages = [stage for stage in stages if not stage.in_transaction]
    write_stages = [stage for stage in stages if stage.in_transaction]
    writing = [item for item in items if item.rejection is None]
    with embedding_jobs_coalesced():  # one embedding job for the memories of all messages
        for item in writing:
            _write_message(item, context, batch_stages, write_stages, last=item is writing[-1])


def _write_message(item: WorkItem, context: IngestContext, batch_stages: list, write_stages: list, *,
                   last: bool) -> None:
    # A retry starts again from the candidates as extracted: extracted anew (cheaper than copying every
    # message's candidates for a rare deadlock), or — for remember_memory's given one — copied.
    given = copy.deepcopy(item.candidates) if context.explicit else None
    attempts, stage_name = 0, ""
    # The batch's one embedding job commits with its last message, unless an outer transaction holds them all.
    job_now = last and not transaction.get_connection().in_atomic_block

    def write_once() -> None:
        nonlocal attempts, stage_name
        attempts += 1
        if attempts > 1:  # PostgreSQL aborted the last try (a deadlock)
            _start_again(item, context, batch_stages, given)
        try:
            with transaction.atomic():
                user_write_lock(context.user_id)  # resolve → reconcile → persist of one user take turns
                for stage in write_stages:
                    stage_name = stage.name
                    stage.run(item, context)
                if context.on_written:
                    context.on_written(item, _trace_entry(item))
                if job_now:
                    enqueue_coalesced_job([result.memory_id for result in item.results if result.memory_id])
        except Exception:
            context.self_entity = None  # it may have been created in the rolled-back transaction
            raise

    try:
        retry_on_conflict(write_once)
    except Rejected as rejected:
        item.rejection, item.results = rejected, []
    except Exception as error:  # noqa: BLE001 - one bad message must not sink the batch; its writes rolled back
        if context.explicit:
            raise  # remember_memory answers for its one memory: the caller sees the error
        logger.exception("pipeline failed at %s for message %s", stage_name, item.message.id)
        item.rejection, item.results = Rejected(stage_name, f"error:{type(error).__name__}"), []


def _start_again(item: WorkItem, context: IngestContext, batch_stages: list, given) -> None:
    item.results = []
    if given is not None:
        item.candidates = copy.deepcopy(given)
        return
    item.candidates = []
    for stage in batch_stages:
        stage.run(item, context)


def _trace_entry(item: WorkItem) -> TraceEntry:
    message = item.message
    if item.rejection:
        rejected = item.rejection
        return TraceEntry(message.id, message.role, Outcome.REJECTED, rejected.stage, rejected.reason,
                          rejected.score or item.relevance)
    if not item.results:
        return TraceEntry(message.id, message.role, Outcome.REJECTED, "extract", "no_candidates", item.relevance)
    headline = min(item.results, key=lambda r: Outcome.PRIORITY.index(r.outcome))
    return TraceEntry(message.id, message.role, headline.outcome, headline.stage, headline.reason, item.relevance,
                      item.results)


def message_id_for(session_id: str, timestamp: datetime, content: str) -> str:
    """A stable id for a message sent without one (so rows can name their source message)."""
    digest = hashlib.sha1(f"{session_id}\n{timestamp.isoformat()}\n{content}".encode()).hexdigest()
    return f"msg_{digest[:16]}"


REPLY_LOOKBACK = 4  # messages back in which to find the one a message answers


def parse_messages(session_id: str, messages: list[dict]) -> list[Message]:
    """Raw messages ({role, content, timestamp?, id?, name?}) as the pipeline takes them: a message's `name`, or
    a leading "Name: " in its content, makes that person its speaker (and the other speaker of the message
    before it its addressee, and that message's id what it replies to); what names given in answer are is read
    from the lines before (`names_answer`);
    a missing timestamp is now, a missing id one made from the message."""
    parsed, lines_by = [], {}  # lines_by: (role, speaker) → that speaker's messages so far
    for raw in messages:
        raw = {**raw, "content": without_secrets(raw["content"])}  # the API did this already; a command or job may not
        timestamp = raw.get("timestamp") or timezone.now()
        speaker, content = speaker_and_text(raw["content"], raw.get("name") or "")
        before = parsed[-1].speaker if parsed else ""
        message = Message(
            content=content, timestamp=timestamp, role=raw.get("role", "user"), speaker=speaker,
            id=raw.get("id") or message_id_for(session_id, timestamp, raw["content"]),
            addressee=before if before != speaker else "",
        )
        own_lines = lines_by.setdefault((message.role, message.speaker), [])
        message.names_answer = names_answer(message, parsed[-1] if parsed else None, own_lines)
        message.in_reply_to = next((m.id for m in reversed(parsed[-REPLY_LOOKBACK:])
                                    if (m.role, m.speaker) != (message.role, message.speaker)), "")
        parsed.append(message)
        own_lines.append(message)
    return parsed


def ingest_messages(*, user_id: str, session_id: str, source: str, actor: str, messages: list[dict]) -> PipelineTrace:
    """Run raw messages (`parse_messages`) through the pipeline and audit the ingest (ids only)."""
    parsed = parse_messages(session_id, messages)
    trace = run_pipeline(user_id=user_id, session_id=session_id, messages=parsed, source=source, actor=actor)
    ingest_recorded(trace, actor=actor, messages=len(parsed))
    return trace


def ingest_dry_run(**work) -> PipelineTrace:
    """The trace `ingest_messages(**work)` would give, nothing of it kept (ingest/expiry_preview.py)."""
    with transaction.atomic():
        trace = ingest_messages(**work)
        transaction.set_rollback(True)
    return trace


def ingest_recorded(trace: PipelineTrace, *, actor: str, messages: int) -> None:
    """Count an ingest's outcomes for Prometheus and write its audit row (ids and counts only)."""
    for entry in trace.entries:
        INGEST_MESSAGES.labels(entry.outcome, entry.stage).inc()
    with transaction.atomic():
        audit_record(actor=actor, action=AuditAction.INGEST, user_id=trace.user_id,
                     target_ids={"session_id": trace.session_id, "memory_ids": trace.memory_ids},
                     counts={"messages": messages, **trace.counts})


__all__ = ["run_pipeline", "parse_messages", "ingest_messages", "ingest_recorded", "Message", "PipelineTrace"]
