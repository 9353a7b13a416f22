"""What the OpenAPI schema says about errors: one body for every error, documented per endpoint.

Every API error answers {"error": code, "message": text} and, for bad input, "fields": the
messages per input field (recall_site/api_errors.py). `with_errors({200: Output}, 400, 404)`
adds that body under each status an endpoint can answer, plus those every endpoint that needs a
token can answer: 401, 403, 413 and 414 (recall_site/request_guards.py) and 429.
"""
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers

ERROR_DESCRIPTIONS = {
    400: "Bad input: `fields` names each field that is wrong. Nothing was written.",
    401: "No token, or a token that is not valid.",
    403: "The account is not granted this user id.",
    404: "Not found, or not one of the account's user ids (`error`: `not_found`, as for every 404).",
    413: "The request body is too large (security.max_body_bytes).",
    414: "The URI is too long (security.max_uri_chars).",
    429: "Too many requests: retry after the Retry-After header's seconds.",
}
TOKEN_ERRORS = (401, 403, 413, 414, 429)


class ErrorSerializer(serializers.Serializer):
    error = serializers.CharField(help_text="A code: invalid, permission_denied, not_found, …")
    message = serializers.CharField(help_text="What went wrong, for people.")
    fields = serializers.DictField(required=False, help_text="Bad input only: the messages per input field.")


def with_errors(responses: dict, *codes: int) -> dict:
    """`responses` plus the error body under `codes` and under TOKEN_ERRORS."""
    errors = sorted({*codes, *TOKEN_ERRORS})
    return {**responses, **{code: OpenApiResponse(ErrorSerializer, ERROR_DESCRIPTIONS[code]) for code in errors}}
