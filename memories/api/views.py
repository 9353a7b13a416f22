"""Memories API: list/get/update, forget_memory, restore, profile."""
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.decorators import api_view
from rest_framework.response import Response

from access.grants import actor_name
from access.scope import UserIdQuerySerializer, query_user_id, scoped_user_id
from memories import selectors, services
from memories.api import serializers as s
from memories.expiry import MemoryNotExpiredError, memory_restore
from recall_site.api_input import validated
from recall_site.api_pagination import lists_pages, paginated_response
from recall_site.api_schema import with_errors


def _memory_for_request(request, memory_id: int):
    """404 for ids outside the account's user ids: no existence leak."""
    return get_object_or_404(selectors.memories_visible_to(request.user), pk=memory_id)


@extend_schema(parameters=[s.MemoryFilterSerializer],
               responses=with_errors({200: s.MemoryOutputSerializer(many=True)}, 400))
@lists_pages
@api_view(["GET"])
def memory_list_view(request):
    filters = validated(s.MemoryFilterSerializer, request.query_params.dict())
    user_id = scoped_user_id(request, filters.pop("user_id"))
    return paginated_response(request, selectors.memory_list(user_id=user_id, **filters), s.MemoryOutputSerializer)


@extend_schema(methods=["GET"], responses=with_errors({200: s.MemoryDetailSerializer}, 404))
@extend_schema(methods=["PATCH"], request=s.MemoryUpdateInputSerializer,
               responses=with_errors({200: s.MemoryOutputSerializer}, 400, 404))
@extend_schema(methods=["DELETE"], responses=with_errors({200: s.ForgetOutputSerializer}, 404))
@api_view(["GET", "PATCH", "DELETE"])
def memory_detail_view(request, memory_id: int):
    memory = _memory_for_request(request, memory_id)
    if request.method == "GET":
        return Response(s.MemoryDetailSerializer(memory).data)
    if request.method == "DELETE":
        counts = services.memory_forget(memory=memory, actor=actor_name(request.user))
        return Response({"deleted": True, "memory_id": memory_id, "counts": counts})
    changes = validated(s.MemoryUpdateInputSerializer, request.data, context={"memory": memory})
    memory = services.memory_update(memory=memory, actor=actor_name(request.user), **changes)
    return Response(s.MemoryOutputSerializer(memory).data)


@extend_schema(request=s.ForgetMemoryInputSerializer,
               responses=with_errors({200: s.ForgetOutputSerializer}, 400, 404))
@api_view(["POST"])
def forget_memory_view(request):
    data = validated(s.ForgetMemoryInputSerializer, request.data)
    user_id = scoped_user_id(request, data["user_id"])
    memory = get_object_or_404(selectors.memory_list(user_id=user_id), pk=data["memory_id"])
    counts = services.memory_forget(memory=memory, actor=actor_name(request.user))
    return Response({"deleted": True, "memory_id": data["memory_id"], "counts": counts})


@extend_schema(parameters=[UserIdQuerySerializer], responses=with_errors({200: s.ProfileSerializer}, 400))
@api_view(["GET"])
def profile_view(request):
    return Response(s.ProfileSerializer(services.profile_get(query_user_id(request))).data)


@extend_schema(request=s.ProfileUpdateInputSerializer, responses=with_errors({200: s.ProfileSerializer}, 400))
@api_view(["POST"])
def update_user_profile_view(request):
    data = validated(s.ProfileUpdateInputSerializer, request.data)
    user_id = scoped_user_id(request, data.pop("user_id"))
    profile = services.profile_update(user_id=user_id, actor=actor_name(request.user), **data)
    return Response(s.ProfileSerializer(profile).data)


@extend_schema(request=None, responses=with_errors({200: s.MemoryOutputSerializer}, 400, 404))
@api_view(["POST"])
def memory_restore_view(request, memory_id: int):
    memory = _memory_for_request(request, memory_id)
    try:
        memory = memory_restore(memory=memory, actor=actor_name(request.user))
    except MemoryNotExpiredError as error:
        raise serializers.ValidationError({"memory_id": [str(error)]}) from error
    return Response(s.MemoryOutputSerializer(memory).data)
