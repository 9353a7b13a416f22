"""Normalising how people are referred to: case, punctuation, titles and role phrases."""
import re
import unicodedata

# Different words for the same role resolve to one alias ("my boss" = "my manager").
ROLE_SYNONYMS = {
    "boss": "manager",
    "supervisor": "manager",
    "line manager": "manager",
    "mom": "mother",
    "mum": "mother",
    "mommy": "mother",
    "mama": "mother",
    "dad": "father",
    "daddy": "father",
    "papa": "father",
    "hubby": "husband",
    "sis": "sister",
    "bro": "brother",
    "gf": "girlfriend",
    "bf": "boyfriend",
}
# Bare family words mean "my …" ("mom" = "my mother").
IMPLICIT_POSSESSIVE = {"mother", "father", "manager"}
# Roles the user names with "the" and means their own: "the client" = "my client". Not "the manager"
# or "the doctor": a shop's manager or any doctor is as likely.
DEFINITE_ROLES = {"client", "boss", "landlord"}
TITLES = {"dr", "mr", "mrs", "ms", "miss", "prof", "sir"}
_PUNCTUATION = re.compile(r"[^\w\s]")
_SPACES = re.compile(r"\s+")


def normalize_name(text: str) -> str:
    """Lowercase, strip punctuation and accents' combining marks, canonicalise role phrases.

    "Sarah C." → "sarah c"; "My Boss" → "my manager"; "mom" → "my mother"; "the client" → "my client".
    """
    text = unicodedata.normalize("NFKC", text).casefold()
    text = _PUNCTUATION.sub(" ", text)
    text = _SPACES.sub(" ", text).strip()
    words = text.split(" ")
    possessive = words[:1] == ["my"] or (words[:1] == ["the"] and " ".join(words[1:]) in DEFINITE_ROLES)
    role = " ".join(words[1:]) if possessive else text
    role = ROLE_SYNONYMS.get(role, role)
    if possessive or role in IMPLICIT_POSSESSIVE:
        return f"my {role}"
    return role


def strip_accents(text: str) -> str:
    if text.isascii():  # most names: nothing to strip, and the resolver calls this once per known name
        return text
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def without_title(normalized: str) -> str:
    words = normalized.split(" ")
    return " ".join(words[1:]) if len(words) > 1 and words[0] in TITLES else normalized


def is_role_phrase(normalized: str) -> bool:
    return normalized.startswith("my ")
