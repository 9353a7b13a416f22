"""Background ingests' task entry points (django-q2), by these names in queued jobs and schedules; the work is
ingest/jobs.py's."""
from ingest.jobs import ingest_job_run, ingest_jobs_upkeep


def run_ingest_job(job_id: int) -> int:
    """Run the background ingests ("wait": false) of this job's user, oldest first (ingest/jobs.py)."""
    return ingest_job_run(job_id)


def resume_ingest_jobs() -> dict:
    """Every minute: run the background ingests left waiting (a lost task, a dead worker) and delete finished
    jobs past `ingest_jobs.retention_days`."""
    return ingest_jobs_upkeep()
