"""GET /api/v1/metrics: a user's memory-quality metrics, now and as a 12-week series."""
from drf_spectacular.utils import extend_schema
from rest_framework.decorators import api_view
from rest_framework.response import Response

from access.scope import UserIdQuerySerializer, scoped_user_id
from metrics.measures import current_metrics, metric_series
from recall_site.api_input import validated
from recall_site.api_schema import with_errors


@extend_schema(parameters=[UserIdQuerySerializer], responses=with_errors({200: dict}, 400))
@api_view(["GET"])
def metrics_view(request):
    user_id = scoped_user_id(request, validated(UserIdQuerySerializer, request.query_params.dict())["user_id"])
    return Response({"user_id": user_id, "current": current_metrics(user_id), "series": metric_series(user_id)})
