"""POST /api/v1/ingest: run conversation messages through the write pipeline and return its trace and what
will expire (ingest/expiry_preview.py) — with "dry_run": true the same, writing nothing — or, with
"wait": false, store them, answer 202 with a job and run them in the background (ingest/jobs.py);
GET /api/v1/ingest/<job_id> answers the job's status and, once done, the same trace."""
from urllib.parse import urlencode

from django.urls import reverse
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.decorators import api_view
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from access.grants import actor_name
from access.scope import DEFAULT_USER_ID, UserIdQuerySerializer, query_user_id, scoped_user_id
from ingest.expiry_preview import ingest_answer
from ingest.jobs import ingest_job_enqueue, ingest_job_for
from ingest.pipeline import ingest_dry_run, ingest_messages
from ingest.secret_values import without_secrets
from memories.api.response_schemas import IngestOutputSerializer
from memories.models import IngestJob, Source
from recall_site.api_fields import StrictBooleanField, content_field
from recall_site.api_input import validated
from recall_site.api_schema import with_errors

INGEST_SOURCES = [Source.AUTO_REFLECTION, Source.IMPORT, Source.MANUAL_TOOL]
MAX_MESSAGES = 500


class IngestMessageSerializer(serializers.Serializer):
    role = serializers.ChoiceField(choices=["user", "assistant", "system", "tool"])
    content = content_field(allow_blank=True, trim_whitespace=False)
    timestamp = serializers.DateTimeField(required=False)
    id = serializers.CharField(max_length=128, required=False, allow_blank=True)
    # Who is speaking, as in chat-completion messages: "I" in the content is this person, not the user.
    name = serializers.CharField(max_length=64, required=False, allow_blank=True)

    def validate_content(self, value: str) -> str:
        return without_secrets(value)  # before a background job stores the message, too


class IngestInputSerializer(serializers.Serializer):
    user_id = serializers.CharField(max_length=128, default=DEFAULT_USER_ID)
    session_id = serializers.CharField(max_length=128)
    source = serializers.ChoiceField(choices=INGEST_SOURCES, default=Source.AUTO_REFLECTION)
    # A ListField (not many=True) so the schema states minItems and maxItems.
    messages = serializers.ListField(child=IngestMessageSerializer(), min_length=1, max_length=MAX_MESSAGES)
    wait = serializers.BooleanField(
        default=True, help_text="false: store the messages, answer 202 with a job at once and run the pipeline in "
                                "the background; GET its status_url for the trace")
    dry_run = StrictBooleanField(
        default=False, help_text="true: run the pipeline and answer its trace and expiry summary, writing nothing")


class IngestJobOutputSerializer(serializers.ModelSerializer):
    job_id = serializers.CharField(source="public_id")
    status_url = serializers.SerializerMethodField()
    result = serializers.SerializerMethodField()

    class Meta:
        model = IngestJob
        fields = ["job_id", "status", "status_url", "user_id", "session_id", "source", "message_count", "attempts",
                  "error", "created_at", "started_at", "finished_at", "result"]
        extra_kwargs = {"status": {"help_text": "queued, running, done or failed"},
                        "error": {"help_text": "why the last attempt failed (an error class, no content)"}}

    def get_status_url(self, job) -> str:
        return f"{reverse('api-ingest-job', args=[job.public_id])}?{urlencode({'user_id': job.user_id})}"

    @extend_schema_field(IngestOutputSerializer(allow_null=True, help_text="the trace, once done"))
    def get_result(self, job):
        return job.result


@extend_schema(request=IngestInputSerializer, responses=with_errors(
    {200: IngestOutputSerializer, 202: IngestJobOutputSerializer}, 400))
@api_view(["POST"])
def ingest_view(request):
    data = validated(IngestInputSerializer, request.data)
    user_id = scoped_user_id(request, data["user_id"])
    work = {"user_id": user_id, "session_id": data["session_id"], "source": data["source"],
            "actor": actor_name(request.user), "messages": data["messages"]}
    if data["dry_run"]:
        trace = ingest_dry_run(**work)
        return Response({**ingest_answer(trace), "dry_run": True})
    if not data["wait"]:
        job = ingest_job_enqueue(**work)
        return Response(IngestJobOutputSerializer(job).data, status=status.HTTP_202_ACCEPTED)
    trace = ingest_messages(**work)
    return Response(ingest_answer(trace))


@extend_schema(parameters=[UserIdQuerySerializer], responses=with_errors({200: IngestJobOutputSerializer}, 400, 404))
@api_view(["GET"])
def ingest_job_view(request, job_id: str):
    job = ingest_job_for(user_id=query_user_id(request), public_id=job_id)
    if job is None:
        raise NotFound("No ingest job with this id for this user id.")
    return Response(IngestJobOutputSerializer(job).data)
