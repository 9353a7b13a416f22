"""Deletion requests (hardDelete / deleteByQuery, with dry run), the audit log, metrics, restore."""
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.decorators import api_view
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from audit import selectors
from access.grants import actor_name
from audit.api import serializers as s
from audit.forget import DeleteRequestError, UnknownTargetError, deletion_preview, hard_delete
from audit.metrics import current_metrics, metric_series
from memories.api.serializers import MemoryOutputSerializer
from memories.expiry import MemoryNotExpiredError, memory_restore
from memories.selectors import memories_visible_to
from recall_site.api_pagination import lists_pages, paginated_response
from recall_site.api_schema import with_errors
from access.scope import scoped_user_id
from recall_site.api_input import validated


@extend_schema(request=s.DeleteInputSerializer, responses=with_errors({200: dict}, 400, 404))
@api_view(["POST"])
def delete_view(request):
    data = validated(s.DeleteInputSerializer, request.data)
    user_id = scoped_user_id(request, data.get("scope", {}).get("user_id"))
    criteria = s.criteria_from(data["filter"])
    try:
        if data["dry_run"]:
            return Response({"dry_run": True, **deletion_preview(user_id=user_id, criteria=criteria)})
        result = hard_delete(user_id=user_id, criteria=criteria, actor=actor_name(request.user),
                             audit_reason=data["audit_reason"])
    except UnknownTargetError as error:
        raise NotFound(str(error)) from error
    except DeleteRequestError as error:
        raise serializers.ValidationError({"filter": [str(error)]}) from error
    return Response({"dry_run": False, **result})


@extend_schema(parameters=[s.AuditFilterSerializer],
               responses=with_errors({200: s.AuditEventOutputSerializer(many=True)}, 400))
@lists_pages
@api_view(["GET"])
def audit_log_view(request):
    filters = validated(s.AuditFilterSerializer, request.query_params.dict())
    filters["user_id"] = scoped_user_id(request, filters["user_id"])
    return paginated_response(request, selectors.audit_events(**filters), s.AuditEventOutputSerializer)


@extend_schema(parameters=[s.UserIdQuerySerializer], responses=with_errors({200: dict}, 400))
@api_view(["GET"])
def metrics_view(request):
    user_id = scoped_user_id(request, validated(s.UserIdQuerySerializer, request.query_params.dict())["user_id"])
    return Response({"user_id": user_id, "current": current_metrics(user_id), "series": metric_series(user_id)})


@extend_schema(request=None, responses=with_errors({200: MemoryOutputSerializer}, 400, 404))
@api_view(["POST"])
def memory_restore_view(request, memory_id: int):
    memory = get_object_or_404(memories_visible_to(request.user), pk=memory_id)
    try:
        memory = memory_restore(memory=memory, actor=actor_name(request.user))
    except MemoryNotExpiredError as error:
        raise serializers.ValidationError({"memory_id": [str(error)]}) from error
    return Response(MemoryOutputSerializer(memory).data)
