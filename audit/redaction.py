"""Names of forgotten entities: which words to redact, and redacting them from free text.

A forgotten person's canonical name, normalized name, aliases and the words of
her canonical name are "terms". Terms are matched case-insensitively as whole
words, both in Python (free-text reasons) and in PostgreSQL (`~*` with `\\y`
word boundaries) to find rows that still name her.
"""
import re

from entities.models import Alias, Entity
from entities.names import is_role_phrase

REDACTED = "[redacted]"
MIN_TOKEN_LENGTH = 2


def entity_terms(entities: list[Entity]) -> list[str]:
    """Every way these entities are named, longest first (so "Sarah Chen" wins over "Sarah")."""
    terms: set[str] = set()
    for entity in entities:
        terms.update({entity.canonical_name, entity.normalized_name})
        if not is_role_phrase(entity.normalized_name):
            terms.update(token for token in re.split(r"[\s.,]+", entity.canonical_name)
                         if len(token) >= MIN_TOKEN_LENGTH)
    for alias, normalized in Alias.objects.filter(entity__in=entities).values_list("alias", "normalized"):
        terms.update({alias, normalized})
    return sorted({term.strip() for term in terms if term and term.strip()}, key=lambda t: (-len(t), t))


def name_terms(terms: list[str]) -> list[str]:
    """Terms that are names, not role phrases ("my manager" may well mean someone else later)."""
    return [term for term in terms if not is_role_phrase(term.casefold())]


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
