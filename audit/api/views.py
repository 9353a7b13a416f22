"""GET /api/v1/audit: the audit log."""
from drf_spectacular.utils import extend_schema
from rest_framework.decorators import api_view

from access.scope import scoped_user_id
from audit import selectors
from audit.api import serializers as s
from recall_site.api_input import validated
from recall_site.api_pagination import lists_pages, paginated_response
from recall_site.api_schema import with_errors


@extend_schema(parameters=[s.AuditFilterSerializer],
               responses=with_errors({200: s.AuditEventOutputSerializer(many=True)}, 400))
@lists_pages
@api_view(["GET"])
def audit_log_view(request):
    filters = validated(s.AuditFilterSerializer, request.query_params.dict())
    filters["user_id"] = scoped_user_id(request, filters["user_id"])
    return paginated_response(request, selectors.audit_events(**filters), s.AuditEventOutputSerializer)
