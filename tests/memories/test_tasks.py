"""Jobs are enqueued by their task's name (so the modules that enqueue them import no task module): each name
is the task entry point's in memories/tasks.py or ingest/tasks.py, the one queued jobs and schedules run."""
from django.utils.module_loading import import_string

from ingest import tasks as ingest_tasks
from ingest.jobs import RUN_INGEST_JOB_TASK
from memories import tasks
from memories.embedding_jobs import EMBED_MEMORIES_TASK
from recall_site.schedules import task_name


def test_the_names_jobs_are_enqueued_by_are_the_task_entry_points():
    assert EMBED_MEMORIES_TASK == task_name(tasks.embed_memories)
    assert RUN_INGEST_JOB_TASK == task_name(ingest_tasks.run_ingest_job)
    assert import_string(EMBED_MEMORIES_TASK) is tasks.embed_memories
    assert import_string(RUN_INGEST_JOB_TASK) is ingest_tasks.run_ingest_job
