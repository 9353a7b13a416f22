"""Redacting names from free text, and finding them in rows: whole words, case-insensitive, both in
Python (`redact`, `mentions_any`) and in PostgreSQL (`sql_word_pattern` for `__iregex`)."""
import re

REDACTED = "[redacted]"


def redact(text: str, terms: list[str]) -> str:
    if not text or not terms:
        return text
    pattern = re.compile(r"(?<!\w)(?:" + "|".join(re.escape(term) for term in terms) + r")(?!\w)", re.IGNORECASE)
    return pattern.sub(REDACTED, text)


def mentions_any(text: str, terms: list[str]) -> bool:
    return bool(terms) and redact(text, terms) != text


def sql_word_pattern(terms: list[str]) -> str:
    """A PostgreSQL regex (for `__iregex`) matching any term as a whole word."""
    escaped = [re.sub(r"([^\w\s])", r"\\\1", term) for term in terms]
    return r"(^|[^[:alnum:]_])(" + "|".join(escaped) + r")($|[^[:alnum:]_])"
