"""The API's JSON parser: DRF's, except that JSON nested too deeply for Python is a 400, not a 500.

Python's json module recurses once per nesting level and gives up with a
RecursionError (not a ValueError, which DRF turns into a ParseError) near 1,000
levels. Fields that hold nested JSON have their own, much smaller, depth cap
(`input_limits.max_profile_json_depth`).
"""
from rest_framework import parsers
from rest_framework.exceptions import ParseError


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON parse error - nested too deeply.") from None
