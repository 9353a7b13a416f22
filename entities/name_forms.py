"""Every way a person is named, for forgetting her: her canonical and normalized names, aliases, the
words of her name and her first name with her surname's initial ("Emma L") are "terms". `text_terms`
narrows them to the names that select her memories by their text: a first name or surname alone is left
out when someone else the user knows carries it too; role phrases ("my manager") never select text.
"""
import re

from entities.models import Alias, Entity
from entities.names import is_role_phrase

MIN_TOKEN_LENGTH = 2


def entity_terms(entities: list[Entity]) -> list[str]:
    """Every way these entities are named, longest first (so "Sarah Chen" wins over "Sarah")."""
    terms: set[str] = set()
    for entity in entities:
        terms.update({entity.canonical_name, entity.normalized_name})
        if not is_role_phrase(entity.normalized_name):
            terms.update(_name_words(entity.canonical_name))
            terms.update(_initial_forms(entity.canonical_name))
    for alias, normalized in Alias.objects.filter(entity__in=entities).values_list("alias", "normalized"):
        terms.update({alias, normalized})
    return sorted({term.strip() for term in terms if term and term.strip()}, key=lambda t: (-len(t), t))


def _name_words(name: str) -> list[str]:
    return [token for token in re.split(r"[\s.,]+", name) if len(token) >= MIN_TOKEN_LENGTH]


def _initial_forms(name: str) -> list[str]:
    """"Emma Larsson" → "Emma L" (which also matches "Emma L.")."""
    words = _name_words(name)
    return [f"{words[0]} {words[-1][0]}"] if len(words) >= 2 else []


def text_terms(terms: list[str], other_names: list[str]) -> list[str]:
    """The name terms that select memories by their text. A single word ("Emma", "Larsson") that is also
    a word of another person's name (`other_names`: everyone else the user knows) is ambiguous and left out."""
    taken = {word.casefold() for name in other_names for word in _name_words(name)}
    return [term for term in name_terms(terms) if " " in term.strip() or term.casefold() not in taken]


def name_terms(terms: list[str]) -> list[str]:
    """Terms that are names, not role phrases ("my manager" may well mean someone else later)."""
    return [term for term in terms if not is_role_phrase(term.casefold())]


