"""Refuse what should never reach a view, and answer a database outage with 503.

- A URI (path + query string) longer than `security.max_uri_chars` is a 414.
- A body larger than `security.max_body_bytes` (announced by Content-Length, or
  found while Django reads a form) is a 413; a multipart upload may also carry
  a contacts file of up to `contacts.max_upload_bytes`. DRF reads JSON bodies as
  a stream, past Django's DATA_UPLOAD_MAX_MEMORY_SIZE check, so the check here
  is what bounds them.
- An OperationalError or InterfaceError from the database (server down,
  connection refused or lost, too many connections) is a 503 with Retry-After
  instead of a 500, on every endpoint; it is logged without its message. Any
  other 503 (/api/v1/ready when not ready) gets the same Retry-After.
- Any other error under /api/ that is not JSON (a 405 from the Swagger page, a
  400 from Django) is turned into JSON.

All answers are JSON under /api/ and plain text elsewhere (`api_errors`).
"""
import logging

from django.core.exceptions import RequestDataTooBig

from recall_site.api_errors import (
    API_PREFIX,
    DATABASE_DOWN,
    as_json_error,
    database_unavailable,
    error_response,
)
from recall_site.config import recall_setting

logger = logging.getLogger(__name__)


class RequestGuardMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        refusal = uri_too_long(request) or body_too_large(request)
        response = refusal or self.get_response(request)
        if response.status_code == 503 and not response.has_header("Retry-After"):
            response["Retry-After"] = str(recall_setting("security.database_retry_after_seconds"))
        if (request.path.startswith(API_PREFIX) and response.status_code >= 400
                and not response.get("Content-Type", "").startswith("application/json")):
            return as_json_error(response)
        return response

    def process_exception(self, request, exception):
        if isinstance(exception, DATABASE_DOWN):
            logger.warning("database unavailable (%s) answering %s %s", type(exception).__name__,
                           request.method, request.path)
            return database_unavailable(request)
        if isinstance(exception, RequestDataTooBig):
            return _too_large(request)
        return None


def uri_too_long(request):
    limit = recall_setting("security.max_uri_chars")
    if len(request.path) + len(request.META.get("QUERY_STRING", "")) <= limit:
        return None
    return error_response(request, 414, "uri_too_long", f"The URI is longer than {limit} characters.")


IMPORT_PATH = "/api/v1/import"


def body_too_large(request):
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return None
    return _too_large(request) if length > body_limit(request) else None


def body_limit(request) -> int:
    if request.path == IMPORT_PATH:  # what an export produced must go back in, however large
        return recall_setting("security.max_import_bytes")
    limit = recall_setting("security.max_body_bytes")
    if request.META.get("CONTENT_TYPE", "").startswith("multipart/form-data"):
        limit += recall_setting("contacts.max_upload_bytes")
    return limit


def _too_large(request):
    return error_response(request, 413, "request_too_large",
                          f"The request body is larger than {body_limit(request)} bytes.")
