"""Finding people, places and role phrases in free text ("lunch with Sarah", "my boss", "in Berlin").

A capitalised word is a name unless it is a common sentence opener, a weekday,
a month or a holiday; a name after "in/to/from" is a place, after "at/for" an org.
"""
import re

from entities.names import DEFINITE_ROLES
from memories.pipeline.base import Mention

# Role word → relation predicate (the named person —predicate→ the other side).
ROLE_WORDS = {
    "manager": "manager_of", "boss": "manager_of", "supervisor": "manager_of",
    "partner": "partner_of", "wife": "partner_of", "husband": "partner_of", "girlfriend": "partner_of",
    "boyfriend": "partner_of", "fiancé": "partner_of", "fiancée": "partner_of", "fiance": "partner_of",
    "fiancee": "partner_of", "spouse": "partner_of",
    "sister": "sibling_of", "brother": "sibling_of", "sibling": "sibling_of",
    "mother": "parent_of", "mom": "parent_of", "mum": "parent_of", "father": "parent_of", "dad": "parent_of",
    "son": "child_of", "daughter": "child_of",
    "roommate": "roommate_of", "flatmate": "roommate_of", "college roommate": "roommate_of",
    "friend": "friend_of", "best friend": "friend_of", "colleague": "colleague_of", "coworker": "colleague_of",
    "co-worker": "colleague_of", "client": "client_of", "doctor": "doctor_of", "therapist": "therapist_of",
    "dentist": "doctor_of", "neighbor": "neighbour_of", "neighbour": "neighbour_of", "cousin": "relative_of",
    "aunt": "relative_of", "uncle": "relative_of", "grandmother": "relative_of", "grandfather": "relative_of",
    "grandma": "relative_of", "grandpa": "relative_of", "mentor": "mentor_of", "landlord": "landlord_of",
}
NOT_NAMES = {
    "i", "i'm", "i've", "i'd", "i'll", "my", "me", "we", "our", "the", "a", "an", "it", "it's", "this", "that",
    "these", "those", "there", "here", "just", "so", "ok", "okay", "remember", "please", "also", "and", "but",
    "or", "if", "when", "then", "can", "could", "would", "will", "do", "did", "does", "is", "are", "was", "have",
    "had", "has", "lunch", "dinner", "breakfast", "brunch", "coffee", "meeting", "call", "moved", "rescheduled",
    "going", "got", "need", "want", "let", "let's", "hey", "hi", "hello", "yes", "no", "not", "maybe", "today",
    "tonight", "tomorrow", "yesterday", "next", "last", "on", "at", "in", "with", "for", "to", "from", "after",
    "before", "new", "finally", "actually", "by", "fyi", "btw", "note", "what", "who", "how", "why", "where",
    "which", "she", "he", "they", "you", "your", "his", "her", "their", "monday", "tuesday", "wednesday",
    "thursday", "friday", "saturday", "sunday", "january", "february", "march", "april", "may", "june", "july",
    "august", "september", "october", "november", "december", "christmas", "easter", "thanksgiving", "halloween",
    "am", "pm", "english", "german", "french", "spanish", "user", "my", "mom", "dad", "mum", "um", "oh", "well",
    "still", "booked", "started", "joined", "quit", "had", "spent", "took", "went", "saw", "met", "told",
    "asked", "visiting", "planning", "thinking", "feeling", "trying", "working", "every", "each", "some", "all",
    "one", "two", "three", "dr", "mr", "mrs", "ms", "prof", "quarterly", "weekly", "daily", "annual", "team",
    "project", "flight", "trip", "dentist", "doctor", "appointment", "interview", "review", "party", "wedding",
}
_NAME = re.compile(r"\b(?:(?:Dr|Mr|Mrs|Ms|Prof)\.? )?[A-Z][\w'’\-]*(?: [A-Z][\w'’\-]*){0,2}")
_PLACE_BEFORE = re.compile(r"\b(in|to|from|near|visit(?:ing)?)\s+$", re.IGNORECASE)
_ORG_BEFORE = re.compile(r"\b(at|for|with the team at|joined)\s+$", re.IGNORECASE)
_ROLE = re.compile(
    r"\b(?:(?:my|our) (?P<role>" + "|".join(sorted(map(re.escape, ROLE_WORDS), key=len, reverse=True)) + r")"
    r"|the (?P<definite>" + "|".join(sorted(DEFINITE_ROLES)) + r"))\b"
    r"(?:,? (?P<next>(?-i:[A-Z])[\w'’\-]*))?", re.IGNORECASE,
)


def is_name(text: str) -> bool:
    """False for capitalised non-names ("Thursday", "The", "Lunch")."""
    return all(word.lower().removesuffix("'s") not in NOT_NAMES for word in text.split(" "))


def named_mentions(text: str) -> list[Mention]:
    found, seen = [], set()
    for match in _NAME.finditer(text):
        words = [w for w in match.group(0).split(" ") if w.strip("'’").lower().removesuffix("'s").removesuffix("’s")
                 not in NOT_NAMES]
        name = " ".join(words).removesuffix("'s").removesuffix("’s").strip()
        if not name or name.lower() in seen or len(name) < 2:
            continue
        seen.add(name.lower())
        before = text[: match.start()]
        kind = "place" if _PLACE_BEFORE.search(before) else "org" if _ORG_BEFORE.search(before) else "person"
        found.append(Mention(name, kind=kind))
    return found


def role_mentions(text: str) -> list[Mention]:
    """Role phrases standing alone ("lunch with my boss", "call the client"); "my sister Emma" names
    her instead."""
    return [Mention(f"my {(m.group('role') or m.group('definite')).lower()}") for m in _ROLE.finditer(text)
            if not (m.group("next") and is_name(m.group("next")))]
