"""POST /api/v1/remember_memory: one memory the assistant was asked to keep, through the write pipeline."""
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.decorators import api_view
from rest_framework.response import Response

from access.grants import actor_name
from access.scope import scoped_user_id
from ingest.remember import remember_memory
from memories.api import serializers as s
from recall_site.api_input import validated
from recall_site.api_schema import with_errors


@extend_schema(request=s.RememberInputSerializer, responses=with_errors({201: s.MemoryOutputSerializer}, 400))
@api_view(["POST"])
def remember_memory_view(request):
    data = validated(s.RememberInputSerializer, request.data)
    user_id = scoped_user_id(request, data.pop("user_id"))
    memory = remember_memory(user_id=user_id, actor=actor_name(request.user), **data)
    return Response(s.MemoryOutputSerializer(memory).data, status=status.HTTP_201_CREATED)
