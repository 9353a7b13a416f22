"""Background ingest ("wait": false): the request stores its messages as an `IngestJob` and answers at once;
a django-q2 task runs them through the same pipeline later, and the job keeps the trace for the caller.

Order: one user's jobs run oldest first, one at a time. Whoever runs them holds the user's queue turn
(`recall_site.locks.user_queue_turn`, a session-level advisory lock held across the job's many
transactions) and takes the oldest unfinished job until none is left; a task that finds the turn taken
leaves its job to the holder, which looks again after giving the turn back. Each message's writes still
take the user's write lock, so a job, a synchronous ingest and a forget of that user take turns per message.

A worker that dies: each message's trace entry is added to the job's `progress` (and its words dropped from
`messages`) inside that message's own write transaction, so a job run again — django-q2 delivers the task
again after Q_CLUSTER["retry"] seconds, the minutely upkeep finds it sooner — skips the messages already
written and writes none of them twice. A job is tried `ingest_jobs.max_attempts` times, then marked failed.

A forget: the purger (memories/purgers.py) deletes the jobs of a forgotten session and those whose words or
trace name a forgotten person, queued, running or done; a running job whose row has gone stops writing at
its next message (rolled back, `job_forgotten`).
"""
import json
import logging
from dataclasses import asdict
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone
from django_q.tasks import async_task

from ingest.expiry_preview import ingest_answer
from ingest.pipeline import Message, PipelineTrace, ingest_recorded, parse_messages, run_pipeline
from ingest.pipeline.base import CandidateResult, Rejected, TraceEntry
from memories.models import IngestJob, IngestJobStatus
from recall_site.config import recall_setting
from recall_site.locks import user_queue_turn, user_write_lock
from recall_site.telemetry import INGEST_JOBS

logger = logging.getLogger(__name__)

UNFINISHED = (IngestJobStatus.QUEUED, IngestJobStatus.RUNNING)
FINISHED = (IngestJobStatus.DONE, IngestJobStatus.FAILED)
# The upkeep leaves younger jobs to the task enqueued with them.
STALE_AFTER = timedelta(minutes=1)
RUN_INGEST_JOB_TASK = "ingest.tasks.run_ingest_job"  # tests/memories/test_tasks.py checks it is that task


def ingest_job_enqueue(*, user_id: str, session_id: str, source: str, actor: str, messages: list[dict]) -> IngestJob:
    """Store validated raw messages as a queued job (timestamps and ids fixed now, as a synchronous ingest
    would fix them) and enqueue its task once the job is committed."""
    parsed = parse_messages(session_id, messages)
    with transaction.atomic():
        job = IngestJob.objects.create(user_id=user_id, session_id=session_id, source=source, actor=actor,
                                       messages=[_stored(message) for message in parsed], message_count=len(parsed))
        transaction.on_commit(lambda: _enqueue(job.pk))
    return job


def _enqueue(job_id: int) -> None:
    INGEST_JOBS.labels("queued").inc()
    # it calls ingest_job_run, in the ingest cluster (recall_site/settings.py: RECALL_INGEST_QUEUE)
    async_task(RUN_INGEST_JOB_TASK, job_id, cluster=settings.RECALL_INGEST_QUEUE)


def ingest_job_for(*, user_id: str, public_id: str) -> IngestJob | None:
    """The user's job with this public id; None for an unknown id or another user's job."""
    return IngestJob.objects.filter(user_id=user_id, public_id=public_id).first()


def ingest_job_run(job_id: int) -> int:
    """Run the queued jobs of this job's user, oldest first (this one among them); how many finished."""
    user_id = IngestJob.objects.filter(pk=job_id).values_list("user_id", flat=True).first()
    return ingest_jobs_drain(user_id) if user_id is not None else 0


def ingest_jobs_upkeep() -> dict:
    """Every minute: run the queues holding a job that waited over a minute (its task lost, its worker dead,
    or put back after an error), and delete finished jobs `ingest_jobs.retention_days` old."""
    now = timezone.now()
    stale = IngestJob.objects.filter(status__in=UNFINISHED, created_at__lt=now - STALE_AFTER)
    ran = sum(ingest_jobs_drain(user_id) for user_id in stale.values_list("user_id", flat=True).distinct())
    cutoff = now - timedelta(days=recall_setting("ingest_jobs.retention_days"))
    deleted, _ = IngestJob.objects.filter(status__in=FINISHED, finished_at__lt=cutoff).delete()
    return {"ran": ran, "deleted": deleted}


def ingest_jobs_drain(user_id: str) -> int:
    """Run the user's unfinished jobs oldest first, while this worker holds the user's queue turn; how many
    finished. A job put back after an error stops the queue: no younger job may overtake it."""
    ran = 0
    while True:
        with user_queue_turn(user_id) as mine:
            if not mine:
                return ran  # the holder runs them: it looks again after giving the turn back
            while (job := _next_job(user_id)) is not None:
                if not _run(job):
                    return ran
                ran += 1
        if not IngestJob.objects.filter(user_id=user_id, status__in=UNFINISHED).exists():
            return ran


def _next_job(user_id: str) -> IngestJob | None:
    """Claim the oldest unfinished job (a running one is one whose worker died: this worker holds the turn)."""
    while True:
        job = IngestJob.objects.filter(user_id=user_id, status__in=UNFINISHED).order_by("pk").first()
        if job is None:
            return None
        if job.attempts >= recall_setting("ingest_jobs.max_attempts"):
            _job_failed(job, "worker_died" if job.status == IngestJobStatus.RUNNING else job.error)
            continue
        claimed = IngestJob.objects.filter(pk=job.pk, attempts=job.attempts, status__in=UNFINISHED).update(
            status=IngestJobStatus.RUNNING, attempts=F("attempts") + 1, started_at=timezone.now())
        job = IngestJob.objects.filter(pk=job.pk).first() if claimed else None
        if job is not None:  # else forgotten meanwhile
            if job.attempts > 1:
                INGEST_JOBS.labels("retried").inc()
            return job


def _run(job: IngestJob) -> bool:
    """Run one claimed job to its end; False when it was put back to be tried again later."""
    try:
        entries = _run_pipeline(job)
    except Exception as error:  # noqa: BLE001 - the job is tried again or marked failed, never lost
        logger.exception("ingest job %s failed", job.public_id)
        reason = f"error:{type(error).__name__}"
        if job.attempts >= recall_setting("ingest_jobs.max_attempts"):
            _job_failed(job, reason)
            return True
        IngestJob.objects.filter(pk=job.pk).update(status=IngestJobStatus.QUEUED, error=reason)
        return False
    _job_done(job, entries)
    return True


def _run_pipeline(job: IngestJob) -> dict[int, TraceEntry]:
    """The pipeline over the messages not yet written (all of them, but for a job resumed); their entries
    by position. Each message's entry joins `progress` in its own write transaction."""
    todo = [position for position in range(len(job.messages)) if str(position) not in job.progress]
    messages = [_restored(job.messages[position]) for position in todo]
    positions = {id(message): position for message, position in zip(messages, todo)}

    def written(item, entry: TraceEntry) -> None:
        _progress_record(job.pk, positions[id(item.message)], entry)

    trace = run_pipeline(user_id=job.user_id, session_id=job.session_id, messages=messages, source=job.source,
                         actor=job.actor, on_written=written)
    return dict(zip(todo, trace.entries))


def _progress_record(job_id: int, position: int, entry: TraceEntry) -> None:
    """Inside the message's write transaction: its entry joins `progress`, its words leave `messages`. A job
    forgotten meanwhile rolls the message back."""
    memory_ids = [result.memory_id for result in entry.results if result.memory_id]
    table = IngestJob._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f'UPDATE "{table}" SET progress = progress || %s::jsonb, memory_ids = memory_ids || %s::bigint[], '
            "messages = jsonb_set(messages, ARRAY[%s::text], 'null'::jsonb) WHERE id = %s",
            [json.dumps({str(position): asdict(entry)}), memory_ids, position, job_id])
        if not cursor.rowcount:
            raise Rejected("ingest", "job_forgotten")


def _job_done(job: IngestJob, entries: dict[int, TraceEntry]) -> None:
    """Keep the whole trace (the entries written in earlier attempts come from `progress`, as a forget may
    have scrubbed them) and drop the messages; audit the ingest as a synchronous one is audited."""
    with transaction.atomic():
        user_write_lock(job.user_id)  # a forget of this user went first or waits
        job = IngestJob.objects.filter(pk=job.pk).first()
        if job is None:
            return  # forgotten meanwhile
        entries |= {int(position): _entry(entry) for position, entry in job.progress.items()}
        trace = PipelineTrace(job.user_id, job.session_id, job.source, [entries[p] for p in sorted(entries)])
        IngestJob.objects.filter(pk=job.pk).update(
            status=IngestJobStatus.DONE, result=ingest_answer(trace), messages=[], progress={}, error="",
            finished_at=timezone.now())
        ingest_recorded(trace, actor=job.actor, messages=job.message_count)
        transaction.on_commit(lambda: INGEST_JOBS.labels("done").inc())


def _job_failed(job: IngestJob, reason: str) -> None:
    IngestJob.objects.filter(pk=job.pk).update(status=IngestJobStatus.FAILED, error=reason,
                                               finished_at=timezone.now())
    INGEST_JOBS.labels("failed").inc()


def _stored(message: Message) -> dict:
    return {**asdict(message), "timestamp": message.timestamp.isoformat()}


def _restored(stored: dict) -> Message:
    return Message(**{**stored, "timestamp": datetime.fromisoformat(stored["timestamp"])})


def _entry(stored: dict) -> TraceEntry:
    return TraceEntry(**{**stored, "results": [CandidateResult(**result) for result in stored["results"]]})
