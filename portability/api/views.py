"""GET /api/v1/export and POST /api/v1/import: take a user's data out of Recall, and bring it back in."""
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.decorators import api_view
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.response import Response

from access.grants import actor_name
from access.scope import UserIdQuerySerializer, query_user_id, scoped_user_id
from portability.api import serializers as s
from portability.document import ExportDocumentSerializer
from portability.responses import JSON, MEDIA_TYPES, export_response
from portability.services import data_import
from recall_site.api_input import validated
from recall_site.api_schema import with_errors


class ExportFormatNegotiation(DefaultContentNegotiation):
    """`?format=` chooses the export's shape here, not DRF's renderer, and the export answers in that shape
    whatever the Accept header says; its errors are JSON."""

    def select_renderer(self, request, renderers, format_suffix=None):
        renderer = next(renderer for renderer in renderers if renderer.format == JSON)
        return renderer, renderer.media_type


def format_picks_the_shape(view):
    """For `api_view`: negotiate with ExportFormatNegotiation."""
    view.content_negotiation_class = ExportFormatNegotiation
    return view


EXPORT_RESPONSES = {
    (200, MEDIA_TYPES["json"]): OpenApiResponse(ExportDocumentSerializer, "The export document."),
    (200, MEDIA_TYPES["jsonl"]): OpenApiResponse(OpenApiTypes.STR, "JSON Lines: a header, then a row a line."),
}


@extend_schema(parameters=[s.ExportQuerySerializer], responses=with_errors(EXPORT_RESPONSES, 400))
@api_view(["GET"])
@format_picks_the_shape
def export_view(request):
    query = validated(s.ExportQuerySerializer, request.query_params.dict())
    return export_response(scoped_user_id(request, query["user_id"]), query["format"])


@extend_schema(parameters=[UserIdQuerySerializer], request=ExportDocumentSerializer,
               responses=with_errors({200: s.ImportResultSerializer}, 400))
@api_view(["POST"])
def import_view(request):
    user_id = query_user_id(request)
    document = validated(ExportDocumentSerializer, request.data)
    return Response(data_import(user_id=user_id, document=document, actor=actor_name(request.user)))
