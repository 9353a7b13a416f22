"""Checks on untrusted text and JSON that PostgreSQL would otherwise refuse with a 500.

PostgreSQL's text and jsonb cannot hold NUL (U+0000), and a lone UTF-16
surrogate (U+D800–U+DFFF, possible through a JSON "\\ud800" escape) cannot be
encoded to UTF-8 at all. DRF's CharField already refuses both; these checks
cover what no CharField sees: the keys and values of free-form JSON (profile
preferences and favorites), user ids read straight from the query string, and
names read from a contacts file. Each returns a message, or None when the input is fine.

`surrogate_path` finds a lone surrogate anywhere in a parsed JSON body, so the API's
parser refuses it before any field (a choice field's "not a valid choice" message would
repeat it, and a repeated surrogate cannot be rendered). A query string or form cannot
carry one: Django decodes those with replacement characters.
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


SURROGATE_MESSAGE = "Lone surrogate characters (U+D800 to U+DFFF) are not allowed."


def surrogate_path(value) -> list | None:
    """The path (keys and list indexes) to the first string, key or value, holding a lone surrogate; None
    when there is none. Iterative, so JSON nested as deep as the parser allows is no RecursionError."""
    pending = [(value, [])]
    while pending:
        item, path = pending.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                return path
        elif isinstance(item, dict):
            for key, child in item.items():
                if isinstance(key, str) and _SURROGATE.search(key):
                    return [*path, key]
                pending.append((child, [*path, key]))
        elif isinstance(item, list):
            pending.extend((child, [*path, index]) for index, child in enumerate(item))
    return None


def printable_path(path: list) -> str:
    """"messages[0].role"; a key that cannot be encoded shows as "?"."""
    text = ""
    for step in path:
        if isinstance(step, int):
            text += f"[{step}]"
        else:
            text += ("." if text else "") + (step if not _SURROGATE.search(step) else "?")
    return text


def encodable(value):
    """`value` (str, or dicts and lists of them) with every lone surrogate written as its escape ("\\ud800"),
    so that an error message quoting input can always be rendered as UTF-8."""
    if isinstance(value, str):
        return value.encode("utf-8", "backslashreplace").decode("utf-8") if _SURROGATE.search(value) else value
    if isinstance(value, dict):
        return {encodable(key): encodable(child) for key, child in value.items()}
    if isinstance(value, list):
        return [encodable(child) for child in value]
    return value


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
