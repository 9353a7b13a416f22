"""Finding people, places, organisations and role phrases in free text ("lunch with Sarah", "my boss", "in Berlin").

A capitalised word is a name unless it holds a digit ("Kvikk-4711"), is a pronoun, question word or sentence
starter ("What", "Hey", "Thanks"), a weekday, a month or a holiday. Cheap context
rules decide what a name is: a person unless its own words say otherwise ("Acme
Inc", "Stanford University", "Lake Tahoe", an acronym), or the words around it
do — "on Duolingo", "the Strava app", "playing Zelda" make a thing, "at/for X" an
org, "in/to/from X" a place; "Sarah's" is always someone's.
"""
import re

from entities.names import DEFINITE_ROLES, NOT_NAME_WORDS
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
NOT_NAMES = NOT_NAME_WORDS | {
    "i'm", "i've", "i'd", "i'll", "the", "a", "an", "it's", "remember", "can", "could", "would", "will", "do",
    "did", "does", "is", "are", "was", "have", "had", "has", "lunch", "dinner", "breakfast", "brunch", "coffee",
    "meeting", "call", "moved", "rescheduled", "going", "got", "need", "want", "not", "maybe", "today", "tonight",
    "tomorrow", "yesterday", "next", "last", "on", "at", "in", "with", "for", "to", "from", "after", "before",
    "new", "finally", "by", "note", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
    "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
    "november", "december", "christmas", "easter", "thanksgiving", "halloween", "am", "pm", "english", "german",
    "french", "spanish", "user", "mom", "dad", "mum", "still", "booked", "started", "joined", "quit", "spent",
    "took", "went", "saw", "met", "told", "asked", "visiting", "planning", "thinking", "feeling", "trying",
    "working", "every", "each", "some", "all", "one", "two", "three", "dr", "mr", "mrs", "ms", "prof",
    "quarterly", "weekly", "daily", "annual", "team", "project", "flight", "trip", "dentist", "doctor",
    "appointment", "interview", "review", "party", "wedding",
    # A memory's own wording starts with its verb: "Prefers window seats", "Likes flat white coffee".
    "prefers", "likes", "loves", "hates", "dislikes", "enjoys", "avoids",
}
# Last words (and for places first words) that make a name an organisation, a place or a thing, not a person.
ORG_WORDS = {
    "inc", "corp", "corporation", "gmbh", "ltd", "llc", "ag", "co", "company", "group", "bank", "university",
    "college", "school", "academy", "institute", "club", "hospital", "clinic", "cafe", "café", "restaurant",
    "bar", "studio", "studios", "gym", "foundation", "society", "association", "labs", "airlines", "airways",
    "center", "centre", "church", "library", "museum", "theater", "theatre", "hotel", "shelter", "store",
}
PLACE_WORDS = {
    "street", "st", "road", "avenue", "lane", "park", "lake", "river", "mountain", "mountains", "beach", "city",
    "county", "island", "islands", "valley", "square", "bay", "falls", "canyon", "forest", "state",
}
PLACE_FIRST_WORDS = {"lake", "mount", "mt", "cape", "fort", "isle", "port"}
THING_WORDS = {"app", "game", "show", "series", "book", "movie", "film", "album", "podcast"}
_NAME = re.compile(r"\b(?:(?:Dr|Mr|Mrs|Ms|Prof)\.? )?[A-Z][\w'’\-]*(?: [A-Z][\w'’\-]*){0,2}")
_PLACE_BEFORE = re.compile(r"\b(in|to|from|near|visit(?:ing)?)\s+$", re.IGNORECASE)
_ORG_BEFORE = re.compile(r"\b(at|for|with the team at|joined)\s+$", re.IGNORECASE)
# Something used, played, watched or read ("on Duolingo", "playing Zelda", "the Strava app").
_THING_BEFORE = re.compile(
    r"\b(on|via|use[sd]?|using|play(?:s|ed|ing)?|download(?:s|ed|ing)?|install(?:s|ed|ing)?|"
    r"watch(?:es|ed|ing)?|(?:re)?read(?:s|ing)?|listen(?:s|ed|ing)? to|subscribed to)\s+(?:the |an? )?$",
    re.IGNORECASE)
_THING_AFTER = re.compile(r"^\s+(app|game|show|series|podcast)\b", re.IGNORECASE)
# "Alex thinks…", "Emma is planning…": a statement about what someone thinks, says, wants or did.
_PERSON_STATEMENT = re.compile(
    r"\b(?P<name>[A-Z][\w\-]*(?: [A-Z][\w\-]*)?)(?: (?:really|just|also|finally|still|always|never|even|recently))? "
    r"(?:thinks|thought|says|said|tells|told|asked|mentioned|wants|wanted|plans|planned|feels|felt|believes|"
    r"believed|loves|loved|hates|hated|likes|liked|prefers|went|got|gets|started|decided|bought|finished|won|lost|"
    r"joined|left|quit|moved|visited|met|called|invited|(?:is|was|has been) (?:planning|going|moving|getting|"
    r"starting|thinking|feeling|trying|working|visiting|looking|learning|studying|struggling))\b")
# A transcript line "Caroline: I went…": a name of one to three words (after an optional title), a colon.
_SPEAKER_LINE = re.compile(
    r"^(?P<name>(?:(?:Dr|Mr|Mrs|Ms|Prof)\.? )?[A-Z][\w'’\-]*(?: [A-Z][\w'’\-]*){0,2}):\s+(?P<text>\S)")
# Labels that open a line like a speaker does ("Note: …", "Update: …") but name nobody.
LINE_LABELS = {
    "update", "reminder", "ps", "edit", "todo", "question", "answer", "summary", "important", "warning", "re",
    "subject", "assistant", "system", "ai", "bot", "tip", "fact", "quote", "source", "context", "example",
    "status", "goal", "task", "idea", "done", "result", "title",
}
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
        if not name or name.lower() in seen or len(name) < 2 or any(c.isdigit() for c in name):
            continue
        seen.add(name.lower())
        found.append(Mention(name, kind=name_kind(match.group(0), text[: match.start()], text[match.end():])))
    return found


def name_kind(name: str, before: str, after: str) -> str:
    """person, org, place or thing, from the name as written ("Sarah's", "Acme Inc", "NASA"), then the
    words around it."""
    first, last = name.split(" ")[0].lower(), name.split(" ")[-1].lower()
    for kind, words in (("org", ORG_WORDS), ("place", PLACE_WORDS), ("thing", THING_WORDS)):
        if last in words:
            return kind
    if first in PLACE_FIRST_WORDS and " " in name:
        return "place"
    if name.endswith(("'s", "’s")):
        return "person"
    if _THING_AFTER.search(after) or _THING_BEFORE.search(before) or (name.isupper() and len(name) > 1):
        return "thing"
    return "place" if _PLACE_BEFORE.search(before) else "org" if _ORG_BEFORE.search(before) else "person"


def role_mentions(text: str) -> list[Mention]:
    """Role phrases standing alone ("lunch with my boss", "call the client"); "my sister Emma" names
    her instead."""
    return [Mention(f"my {(m.group('role') or m.group('definite')).lower()}") for m in _ROLE.finditer(text)
            if not (m.group("next") and is_name(m.group("next")))]


def person_statement(text: str) -> str:
    """The name of the first person the text says something about ("Yesterday Alex told me…" → "Alex"), or ""."""
    for match in _PERSON_STATEMENT.finditer(text):
        if name := " ".join(word for word in match.group("name").split(" ") if is_name(word)):
            return name
    return ""


def speaker_and_text(content: str, name: str = "") -> tuple[str, str]:
    """(speaker, words) of one message: its `name` field, else a leading "Name: " (which is cut from the
    words); ("", content) when the user speaks."""
    match = _SPEAKER_LINE.match(content)
    prefix = match.group("name") if match else ""
    if not is_name(prefix) or prefix.lower() in LINE_LABELS:
        prefix = ""
    speaker = name.strip() or prefix
    if prefix and prefix == speaker:
        return speaker, content[match.start("text"):]
    return speaker, content
