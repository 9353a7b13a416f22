"""Every API error is JSON: {"error": code, "message": text, "fields": {...}}.

DRF's views answer through `json_exception_handler`; a path under /api/ that no
view matches, or a crash before a view answers, goes through Django's handler404 /
handler500 (`not_found`, `server_error`), which answer JSON there and the usual
HTML page elsewhere.
"""
from django.http import JsonResponse
from django.views import defaults
from rest_framework import exceptions
from rest_framework.views import exception_handler

API_PREFIX = "/api/"


def not_found(request, exception):
    if request.path.startswith(API_PREFIX):
        return JsonResponse({"error": "not_found", "message": f"No API endpoint at {request.path}."}, status=404)
    return defaults.page_not_found(request, exception)


def server_error(request):
    if request.path.startswith(API_PREFIX):
        return JsonResponse({"error": "server_error", "message": "The server failed to answer; try again."},
                            status=500)
    return defaults.server_error(request)


def json_exception_handler(exc, context):
    response = exception_handler(exc, context)
    if response is None:
        return None
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
