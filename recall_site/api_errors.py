"""Every API error is JSON: {"error": code, "message": text, "fields": {...}}.

DRF's views answer through `json_exception_handler`; a path under /api/ that no
view matches, or a crash before a view answers, goes through Django's handler404 /
handler500 (`not_found`, `server_error`), which answer JSON there and the usual
HTML page elsewhere; so does handler400 (`bad_request`), except that a form body
too large to read is a 413. A crash caused by an unreachable database is a 503 with
Retry-After (`database_unavailable`), not a 500. `error_response` builds the
errors the request guards answer (413, 414, 503): JSON under /api/, plain text
elsewhere; `as_json_error` turns any other non-JSON error under /api/ into JSON. An error
that quotes input has its lone surrogates escaped, so it can always be rendered.
Every 404 has the code `not_found`, an unknown path as much as a memory, entity or relation
that does not exist or is not the account's.
"""
import sys
from http import HTTPStatus

from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpResponse, JsonResponse
from django.views import defaults
from rest_framework import exceptions
from rest_framework.views import exception_handler

from recall_site.config import recall_setting
from recall_site.input_checks import encodable

API_PREFIX = "/api/"
DATABASE_DOWN = (OperationalError, InterfaceError)


def not_found(request, exception):
    if request.path.startswith(API_PREFIX):
        return JsonResponse({"error": "not_found", "message": f"No API endpoint at {request.path}."}, status=404)
    return defaults.page_not_found(request, exception)


def bad_request(request, exception):
    """Django's 400 for a SuspiciousOperation; a body too large found while reading a form is a 413."""
    if isinstance(exception, RequestDataTooBig):
        return error_response(request, 413, "request_too_large", "The request body is too large.")
    if request.path.startswith(API_PREFIX):
        return JsonResponse({"error": "bad_request", "message": "Bad request."}, status=400)
    return defaults.bad_request(request, exception)


def server_error(request):
    if isinstance(sys.exc_info()[1], DATABASE_DOWN):
        return database_unavailable(request)
    if request.path.startswith(API_PREFIX):
        return JsonResponse({"error": "server_error", "message": "The server failed to answer; try again."},
                            status=500)
    return defaults.server_error(request)


def error_response(request, status: int, error: str, message: str, **headers) -> HttpResponse:
    if request.path.startswith(API_PREFIX):
        response = JsonResponse({"error": error, "message": message}, status=status)
    else:
        response = HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")
    for name, value in headers.items():
        response[name.replace("_", "-")] = value
    return response


def database_unavailable(request) -> HttpResponse:
    seconds = recall_setting("security.database_retry_after_seconds")
    return error_response(request, 503, "database_unavailable",
                          f"The database is unavailable; try again in {seconds} seconds.", Retry_After=str(seconds))


def as_json_error(response) -> JsonResponse:
    """A non-JSON error answered under /api/ as JSON, same status and headers: an API error a browser asked
    for as HTML keeps its body (DRF's `data`), any other (the Swagger page's 405) gets one from its status."""
    body = getattr(response, "data", None)
    if not isinstance(body, dict):
        try:
            status = HTTPStatus(response.status_code)
            body = {"error": status.name.lower(), "message": status.phrase + "."}
        except ValueError:
            body = {"error": "error", "message": "The request failed."}
    replacement = JsonResponse(body, status=response.status_code)
    for name in ("Allow", "Retry-After", "WWW-Authenticate"):
        if response.has_header(name):
            replacement[name] = response[name]
    return replacement


def json_exception_handler(exc, context):
    exc = _as_api_exception(exc)
    response = exception_handler(exc, context)
    if response is None:
        return None
    response.data = encodable(response.data)  # a message quoting input must still render as UTF-8
    if isinstance(exc, exceptions.ValidationError):
        fields = response.data if isinstance(response.data, dict) else {"non_field_errors": response.data}
        response.data = {
            "error": "invalid",
            "message": _first_message(fields) or "Invalid input.",
            "fields": fields,
        }
    else:
        detail = getattr(exc, "detail", None)
        response.data = {
            "error": getattr(detail, "code", None) or "error",
            "message": str(detail) if detail is not None else str(exc),
        }
    return response


def _as_api_exception(exc):
    """Django's Http404 and PermissionDenied as DRF's, so that their code is `not_found` or
    `permission_denied` like every other 404 and 403 (DRF converts them too, but hands us the original)."""
    if isinstance(exc, Http404):
        return exceptions.NotFound(*exc.args)
    if isinstance(exc, PermissionDenied):
        return exceptions.PermissionDenied(*exc.args)
    return exc


def _first_message(data, path=""):
    if isinstance(data, dict):
        for key, value in data.items():
            found = _first_message(value, f"{path}.{key}" if path else str(key))
            if found:
                return found
    elif isinstance(data, list):
        for item in data:
            found = _first_message(item, path)
            if found:
                return found
    elif data:
        return f"{path}: {data}" if path and path != "non_field_errors" else str(data)
    return None
