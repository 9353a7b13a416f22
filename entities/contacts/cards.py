"""One contact as read from any export format, and the vocabulary shared by the readers.

Only what resolution needs is kept on a card: names, nicknames, organisation and
named relations. Everything else is counted (by category) and dropped.
"""
import re
from collections import Counter
from dataclasses import dataclass, field

from entities.names import normalize_name


class ContactsFormatError(ValueError):
    """The file cannot be read; the message names the line and the card."""


# Relation label → (predicate for "related person —predicate→ card person", role alias when the
# card is the user's own). Apple, Google and Outlook spellings all land here.
RELATION_LABELS = {
    "spouse": ("spouse_of", "my spouse"),
    "wife": ("spouse_of", "my wife"),
    "husband": ("spouse_of", "my husband"),
    "partner": ("partner_of", "my partner"),
    "domestic partner": ("partner_of", "my partner"),
    "manager": ("manager_of", "my manager"),
    "assistant": ("assistant_of", "my assistant"),
    "child": ("child_of", "my child"),
    "son": ("child_of", "my son"),
    "daughter": ("child_of", "my daughter"),
    "parent": ("parent_of", "my parent"),
    "mother": ("parent_of", "my mother"),
    "father": ("parent_of", "my father"),
    "sibling": ("sibling_of", "my sibling"),
    "brother": ("sibling_of", "my brother"),
    "sister": ("sibling_of", "my sister"),
    "friend": ("friend_of", None),
}
# Categories of personal data that are never stored; the summary counts them.
SKIPPED_CATEGORIES = ("phone", "email", "address", "birthday", "photo", "other")
_APPLE_LABEL = re.compile(r"^_\$!<(.*)>!\$_$")


def relation_label(raw: str) -> str | None:
    """"_$!<Spouse>!$_" / "Spouse" / "spouse" → "spouse"; None for labels we do not map."""
    text = raw.strip()
    apple = _APPLE_LABEL.match(text)
    label = (apple.group(1) if apple else text).strip().lower()
    return label if label in RELATION_LABELS else None


def file_as_name(value: str) -> str:
    """Outlook's "Chen, Sarah" reads as "Sarah Chen"; other forms are kept."""
    parts = [part.strip() for part in value.split(",")]
    if len(parts) == 2 and all(parts):
        return f"{parts[1]} {parts[0]}"
    return value.strip()


@dataclass
class ContactCard:
    where: str                      # "card 12 (line 140)" or "row 7", for messages
    full_name: str = ""
    given_name: str = ""
    family_name: str = ""
    prefix: str = ""
    display_name: str = ""
    file_as: str = ""
    nicknames: list[str] = field(default_factory=list)
    organisation: str = ""
    related: list[tuple[str, str]] = field(default_factory=list)  # (label, name)
    related_uids: list[tuple[str, str]] = field(default_factory=list)  # (label, uid), vCard 4 RELATED uri
    uid: str = ""
    is_organisation: bool = False
    skipped: Counter = field(default_factory=Counter)

    @property
    def name(self) -> str:
        composed = " ".join(part for part in (self.given_name, self.family_name) if part)
        return (self.full_name or self.display_name or composed or file_as_name(self.file_as)).strip()

    def lookup_forms(self) -> list[str]:
        """Forms that identify this person, most specific first (the given name alone does not)."""
        return _unique([self.name, self.display_name, file_as_name(self.file_as), *self.nicknames])

    def alias_forms(self) -> list[str]:
        titled = f"{self.prefix} {self.family_name}" if self.prefix and self.family_name else ""
        return _unique([*self.lookup_forms(), self.given_name, titled])

    def normalized_names(self) -> set[str]:
        return {normalize_name(form) for form in self.alias_forms()} - {""}

    def stored_texts(self) -> list[str]:
        """Every text of this card that may become an entity name or an alias."""
        return [*self.alias_forms(), self.organisation, *(name for _label, name in self.related)]


def _unique(forms) -> list[str]:
    seen, kept = set(), []
    for form in forms:
        form = (form or "").strip()
        key = normalize_name(form)
        if key and key not in seen:
            seen.add(key)
            kept.append(form)
    return kept
