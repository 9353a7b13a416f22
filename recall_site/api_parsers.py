"""The API's JSON parser: DRF's, except that JSON nested too deeply for Python is a 400, not a 500, and that
a lone surrogate anywhere in the body (a "\\ud800" escape, in a key or any string) is a 400 before any field
sees it: one check for every endpoint and field, choice fields included, whose messages would repeat it.

Python's json module recurses once per nesting level and gives up with a
RecursionError (not a ValueError, which DRF turns into a ParseError) near 1,000
levels. Fields that hold nested JSON have their own, much smaller, depth cap
(`input_limits.max_profile_json_depth`).
"""
from rest_framework import parsers
from rest_framework.exceptions import ParseError, ValidationError

from recall_site.input_checks import SURROGATE_MESSAGE, printable_path, surrogate_path


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON parse error - nested too deeply.") from None
        path = surrogate_path(data)
        if path is not None:
            raise ValidationError(_surrogate_error(path))
        return data


def _surrogate_error(path: list) -> dict:
    """{"type": [message]} for a bad top-level field, naming the place (never the value); non_field_errors
    when the body is not an object or the bad string is a top-level key."""
    field = path[0] if path and isinstance(path[0], str) else None
    if field is None or printable_path([field]) != field:
        return {"non_field_errors": [f"{SURROGATE_MESSAGE} (at {printable_path(path) or 'the body'})"]}
    where = f" (at {printable_path(path)})" if len(path) > 1 else ""
    return {field: [SURROGATE_MESSAGE + where]}
