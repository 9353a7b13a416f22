"""POST /api/v1/ingest: run conversation messages through the write pipeline and return its trace."""
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.decorators import api_view
from rest_framework.response import Response

from access.grants import actor_name
from memories.api.response_schemas import IngestOutputSerializer
from memories.models import Source
from memories.pipeline import ingest_messages
from recall_site.api_fields import content_field
from recall_site.api_schema import with_errors
from access.scope import DEFAULT_USER_ID, scoped_user_id
from recall_site.api_input import validated

INGEST_SOURCES = [Source.AUTO_REFLECTION, Source.IMPORT, Source.MANUAL_TOOL]
MAX_MESSAGES = 500


class IngestMessageSerializer(serializers.Serializer):
    role = serializers.ChoiceField(choices=["user", "assistant", "system", "tool"])
    content = content_field(allow_blank=True, trim_whitespace=False)
    timestamp = serializers.DateTimeField(required=False)
    id = serializers.CharField(max_length=128, required=False, allow_blank=True)
    # Who is speaking, as in chat-completion messages: "I" in the content is this person, not the user.
    name = serializers.CharField(max_length=64, required=False, allow_blank=True)


class IngestInputSerializer(serializers.Serializer):
    user_id = serializers.CharField(max_length=128, default=DEFAULT_USER_ID)
    session_id = serializers.CharField(max_length=128)
    source = serializers.ChoiceField(choices=INGEST_SOURCES, default=Source.AUTO_REFLECTION)
    # A ListField (not many=True) so the schema states minItems and maxItems.
    messages = serializers.ListField(child=IngestMessageSerializer(), min_length=1, max_length=MAX_MESSAGES)


@extend_schema(request=IngestInputSerializer, responses=with_errors({200: IngestOutputSerializer}, 400))
@api_view(["POST"])
def ingest_view(request):
    data = validated(IngestInputSerializer, request.data)
    user_id = scoped_user_id(request, data["user_id"])
    trace = ingest_messages(user_id=user_id, session_id=data["session_id"], source=data["source"],
                            actor=actor_name(request.user), messages=data["messages"])
    return Response(trace.as_dict())
