"""The audit log and metrics endpoints."""
from drf_spectacular.utils import extend_schema
from rest_framework.decorators import api_view
from rest_framework.response import Response

from audit import selectors
from audit.api import serializers as s
from audit.metrics import current_metrics, metric_series
from recall_site.api_pagination import lists_pages, paginated_response
from recall_site.api_schema import with_errors
from access.scope import scoped_user_id
from recall_site.api_input import validated


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
