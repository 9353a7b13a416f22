"""The site's probes: liveness (/api/v1/health) and readiness (/api/v1/ready: the database and the model)."""
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.decorators import api_view, permission_classes, throttle_classes
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from memories.readiness import readiness


@extend_schema(responses={200: inline_serializer("Health", {"status": serializers.CharField()})})
@api_view(["GET"])
@permission_classes([AllowAny])
@throttle_classes([])  # a probe is never refused, and the rate limits' counts live in the database
def health_view(request):
    """Liveness: the process answers. It touches neither the database nor the model (/api/v1/ready does)."""
    return Response({"status": "ok"})


@extend_schema(responses={200: dict, 503: dict})
@api_view(["GET"])
@permission_classes([AllowAny])
def ready_view(request):
    report = readiness()
    return Response(report, status=status.HTTP_200_OK if report["ready"] else status.HTTP_503_SERVICE_UNAVAILABLE)
