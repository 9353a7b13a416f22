"""Checks on untrusted text and JSON that PostgreSQL would otherwise refuse with a 500.

PostgreSQL's text and jsonb cannot hold NUL (U+0000), and a lone UTF-16
surrogate (U+D800–U+DFFF, possible through a JSON "\\ud800" escape) cannot be
encoded to UTF-8 at all. DRF's CharField already refuses both; these checks
cover what no CharField sees: the keys and values of free-form JSON (profile
preferences and favorites), user ids read straight from the query string, and
names read from a contacts file. Each returns a message, or None when the input is fine.
"""
import json
import math
import re

_SURROGATE = re.compile("[\ud800-\udfff]")


def text_problem(value: str) -> str | None:
    """Why `value` cannot be stored as text, or None."""
    if "\x00" in value:
        return "Null characters are not allowed."
    if _SURROGATE.search(value):
        return "Surrogate characters are not allowed."
    return None


def json_problem(value, *, max_bytes: int, max_depth: int) -> str | None:
    """Why a JSON value cannot be stored: a bad key or string, a non-finite number, too deep, too big."""
    problem = _nested_problem(value, depth=1, max_depth=max_depth)
    if problem:
        return problem
    size = len(json.dumps(value, ensure_ascii=False).encode())
    if size > max_bytes:
        return f"At most {max_bytes} bytes of JSON are allowed (this is {size})."
    return None


def _nested_problem(value, *, depth: int, max_depth: int) -> str | None:
    if isinstance(value, (dict, list)) and depth > max_depth:
        return f"JSON may be nested at most {max_depth} levels deep."
    if isinstance(value, dict):
        children = [*value.keys(), *value.values()]
    elif isinstance(value, list):
        children = value
    elif isinstance(value, str):
        return text_problem(value)
    elif isinstance(value, float) and not math.isfinite(value):
        return "Numbers must be finite."
    else:
        return None
    for child in children:
        if problem := _nested_problem(child, depth=depth + 1, max_depth=max_depth):
            return problem
    return None
