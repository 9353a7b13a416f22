"""`<ingest_job_id:job_id>` in URLs: a background ingest job's public id matched by its format.

Ids are "ing_" and 16 hex digits (`memories.models.new_ingest_job_id`), so anything else in the URL is a 404
before a query runs.
"""
from django.urls.converters import StringConverter

INGEST_JOB_ID_PATTERN = "ing_[0-9a-f]{16}"


class IngestJobIdConverter(StringConverter):
    regex = INGEST_JOB_ID_PATTERN
