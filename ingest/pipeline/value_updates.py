"""A later value for the same measure supersedes the earlier one: "the build now takes 4 minutes" after "the
build takes 11 minutes", "we're up to 40 beta users" after "we have 25 beta users".

The seed's "supersede readily" goes beyond the fixed attributes (residence, employer, diet) reconcile knows
by name: a statement giving a number for a measure (the words after the number, "minutes", "beta users")
about a topic (the content words of its clause, "build") is an update of an earlier active memory of the
user's that gives another number for the same measure and shares a topic word (two for a long message), when
the same clause says so ("now", "up to", "grew to", "changed to", "no longer", "instead of", …: UPDATE_CUE) and
both are short statements. Otherwise both are kept (a long message holds more than its value) and the later one
names the earlier in `details.updates` (a chain GET /memories/<id> shows); search puts the later first. What
the assistant said never updates what the user said, nor the reverse. A thing put in another's place ("we switched
from Flask to FastAPI") is linked the same way to the earlier memories naming the old one, and a change said
without naming what it replaces ("I've switched to learning Italian instead", "these days I wake up at 7:30") to
the latest memory on its topic. A new value said with no topic ("Actually, let's make it €2,000") updates the
latest value of its measure and is restated as the earlier statement with the new value (`restated`).
A size or a duration is one measure whatever its unit ("512MB" then "1GB", "90 seconds" then "2 minutes"), and
a date is the value of the thing it is the date of ("a deadline of April 1, 2024" then "the deadline … to April
5, 2024"). Reads only (one query for a candidate that gives a value); persist supersedes or links.
"""
import re
from dataclasses import dataclass

from django.contrib.postgres.search import SearchQuery, SearchRank
from django.db.models import F

from ingest.pipeline.dates import TIME_WORD
from memories.models import SAID_BY_ASSISTANT, Memory, Status
from memories.user_words import UserToken, UserWords

CI = re.IGNORECASE
UPDATE_CUE = re.compile(
    r"\b(?:now|currently|these days|up to|down to|(?:has |have )?(?:grown|grew|increased|decreased|dropped|fell|"
    r"rose|risen|climbed|improved|changed|switched|moved|gone|went|shrunk|jumped|doubled|halved|slipped|slid|"
    r"pushed|delayed|postponed|bumped) (?:from .{1,40}? )?to|crossed|reached|surpassed|topped|no longer|not anymore|"
    r"instead of|anymore|updated?|revised|actually|new (?:routine|schedule|plan|rule|habit|bedtime|time)|"
    r"let(?:'s|’s| us) (?:make|change|bump|raise|lower|up) it)\b", CI)
_COMMA = re.compile(r",(?!\d)")  # not the thousands of "€2,000"
_MAKE_IT = re.compile(r"\blet(?:'s|’s| us) (?:make|change|bump|raise|lower|up) it\b", CI)
# A short statement of one new value ("Dr. Patel raised my lisinopril to 40mg", "I'm down to 78 kg now") says more
# with fewer words: its object may stand between the verb and "to", its unit may be written onto the number, and
# it may name no topic at all. A long message (a technical chat's) is held to the stricter forms above: its many
# clauses share some topic word with almost any earlier message.
SHORT_STATEMENT_WORDS = 16
_CHANGED_TO = re.compile(r"\b(?:raised|lowered|reduced|increased|decreased|cut|bumped|upped|changed|moved|adjusted)"
                         r"(?: \w+){1,3} to\b", CI)
_NUMBER = re.compile(r"(?<![\w.])(?P<value>\d+(?:[.,]\d+)?)\s*(?P<measure>%|percent\b|(?:[a-z][a-z\-]*)"
                     r"(?: (?!(?:and|or|but|in|on|at|to|for|of|per|a|an|the|now|with)\b)[a-z][a-z\-]*)?)", CI)
# An amount of money ("$2,100", "€1.5k", "£20,000"): a measure of its own, whatever words follow.
_MONEY = re.compile(r"[$€£]\s?(?P<value>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?P<k>\s?[km]\b)?", CI)
_CLAUSE = re.compile(r"\.(?!\d)|(?<!\d)\.|[;!?]|,\s+(?:and|but|so)\b")  # not the point of "1.5"
_WORD = re.compile(r"[a-z][a-z\-]{2,}")
_NOT_TOPIC = frozenset("""
after before the and but for with from into onto our ours your yours their they them this that these those there here what
which who when where how was were are is be been being has have had having does did doing done not now
currently about around roughly approximately nearly almost just only still also very really quite some any
all each every more most less least than then too its it's i'm we're you're we've i've up down take takes
took taking make makes made get gets got getting let lets per over under slipped slid pushed delayed postponed
bumped since after before while last next this
week weeks day days month months year years today yesterday tomorrow time times lately recently so
trying try tried optimize optimizing optimise optimising improve improving improved working want wanted wants
need needs needed help sure implement implementing implemented issue issues problem problems getting having
using use used seem seems like able way best better performance reduce reducing increase increasing ensure
""".split())
LOOKUP_LIMIT = 20
_LEXEME = re.compile(r"[a-z]+")  # a word to_tsquery takes as it is
# Units of one quantity: a value is kept in the family's base unit, so "512MB" and "1GB" compare.
_UNITS = {
    **{unit: ("size", factor) for units, factor in (
        (("kb", "kib", "kilobyte"), 1e3), (("mb", "mib", "megabyte"), 1e6), (("gb", "gib", "gigabyte"), 1e9),
        (("tb", "tib", "terabyte"), 1e12), (("byte",), 1.0)) for unit in units},
    **{unit: ("duration", factor) for units, factor in (
        (("ms", "millisecond", "msec"), 0.001), (("sec", "second"), 1.0), (("min", "minute"), 60.0),
        (("hour", "hr"), 3600.0)) for unit in units},
}
MONEY = "money"
_QUANTITIES = frozenset({"size", "duration", MONEY})
# Words that are a measure by themselves: the word after them is not part of it.
_MEASURE_WORDS = frozenset("""
minute second hour ms user customer request line test table row page word item unit subscriber member signup
order euro dollar mile kilometre kilometer km kg pound calorie step file star download view follower
""".split()) | _UNITS.keys()
# Things whose value is a date: "a sprint deadline of April 1, 2024", "the launch moved to May 3".
_DATED = re.compile(r"\b(deadline|due date|launch|release|go-live|kickoff|kick-off|cutoff|cut-off|milestone|demo|"
                    r"start date|end date|appointment|interview|exam|wedding|flight|move-in|handover)s?\b", CI)
_MONTH_NUMBER = {name: n for n, names in enumerate((
    ("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"), ("may",), ("jun", "june"),
    ("jul", "july"), ("aug", "august"), ("sep", "sept", "september"), ("oct", "october"), ("nov", "november"),
    ("dec", "december")), start=1) for name in names}
_MONTH = "|".join(sorted(_MONTH_NUMBER, key=len, reverse=True))
_DATE = re.compile(rf"\b(?:(?P<month>{_MONTH})\.? (?P<day>\d{{1,2}})(?:st|nd|rd|th)?(?:,? (?P<year>\d{{4}}))?|"
                   rf"(?P<day2>\d{{1,2}})(?:st|nd|rd|th)? (?:of )?(?P<month2>{_MONTH})(?:,? (?P<year2>\d{{4}}))?|"
                   r"(?P<iso>\d{4}-\d{2}-\d{2}))\b", CI)


@dataclass(frozen=True)
class Measure:
    value: float
    measure: str  # the word after the number, singular ("user"), a unit's quantity ("duration"), a dated thing
    topic: frozenset  # the clause's other content words
    updated: bool = False  # its clause says it is a new value ("now takes", "up to")
    glued: bool = False  # written onto its number ("20mg"): full text holds "20mg", not "mg"
    short: bool = False  # said in a short statement (SHORT_STATEMENT_WORDS)


def measures(text: str) -> list[Measure]:
    """Each value the text gives for a measure (a number and what it counts, or a dated thing's date), with the
    topic words of its clause."""
    found, short = [], is_short(text)
    for clause in _CLAUSE.split(text):
        # "Let's make it $4000, my sister is joining": the value's own part of the clause says what it is of.
        said = next((part for part in _COMMA.split(clause) if _MAKE_IT.search(part)), clause)
        words = {w for w in _WORD.findall(said.lower())
                 if w not in _NOT_TOPIC and w not in _MONTH_NUMBER and not UPDATE_CUE.fullmatch(w)}
        updated = bool(UPDATE_CUE.search(clause) or (short and _CHANGED_TO.search(clause)))
        dated = _DATED.search(clause)
        for match in _DATE.finditer(clause) if dated else ():
            thing = dated.group(1).lower()
            found.append(Measure(_date_value(match), thing, frozenset(words - set(thing.split())), updated,
                                 short=short))
        for match in _MONEY.finditer(clause) if short else ():  # a long message's sums: too many share a topic
            scale = {"k": 1e3, "m": 1e6}.get((match.group("k") or "").strip().lower(), 1.0)
            found.append(Measure(float(match.group("value").replace(",", "")) * scale, MONEY, frozenset(
                _singular(w) for w in words), updated, short=short))
        for match in _NUMBER.finditer(_DATE.sub(" ", _MONEY.sub(" ", clause))):
            measure_words = match.group("measure").lower().split()
            if len(measure_words) > 1 and (measure_words[1] in _NOT_TOPIC or not _WORD.fullmatch(measure_words[1])
                                           or _singular(measure_words[0]) in _MEASURE_WORDS):
                measure_words = measure_words[:1]  # "4 minutes after caching", "3 users signed up"
            head = _singular(measure_words[-1])
            if head in _NOT_TOPIC or UPDATE_CUE.fullmatch(head):
                continue
            value = float(match.group("value").replace(",", "."))
            topic = frozenset(_singular(w) for w in (words - set(measure_words)) | set(measure_words[:-1]))
            quantity, factor = _UNITS.get(head, (head, 1.0))
            glued = short and not match.group(0)[len(match.group("value")):][:1].isspace()
            found.append(Measure(value * factor, quantity, topic, updated, glued, short))
    return found


def _date_value(match: re.Match) -> float:
    """A date as a comparable number, yyyymmdd (the year 0 when not given)."""
    if match.group("iso"):
        return float(match.group("iso").replace("-", ""))
    month = _MONTH_NUMBER[(match.group("month") or match.group("month2")).lower().rstrip(".")]
    day, year = int(match.group("day") or match.group("day2")), int(match.group("year") or match.group("year2") or 0)
    return float(year * 10000 + month * 100 + day)


def is_short(text: str) -> bool:
    return len(text.split()) <= SHORT_STATEMENT_WORDS


def _singular(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def same_measure(new: Measure, old: Measure) -> bool:
    """The same measure of the same thing, with another value: a topic word in common (two for a long message);
    a new value said with nothing but its measure ("I'm down to 78 kg now") is of the thing last measured so
    (earlier_values keeps only that one)."""
    shared = len(new.topic & old.topic)
    return new.measure == old.measure and new.value != old.value and (
        shared >= (1 if new.short else 2) or (new.updated and new.short and not new.topic))


def _lookup_query(given: list[Measure]) -> str:
    """to_tsquery text: one of the measures and one of their topic words (ranked by how many they share). A
    measure word alone ("request", "minute") is in most memories of a long technical chat, and the earlier
    value fell out of the newest LOOKUP_LIMIT of them."""
    names = {m.measure for m in given
             if _LEXEME.fullmatch(m.measure) and m.measure not in _QUANTITIES and not m.glued}
    measures_ = " | ".join(sorted(names))
    topics = " | ".join(sorted({w for m in given for w in m.topic if _LEXEME.fullmatch(w)} - names))
    if not measures_:  # a size or a duration is written in many units, "20mg" is one word: found by topic alone
        return topics
    return f"({measures_}) & ({topics})" if topics else measures_


# One thing put in another's place: "we decided to switch from Flask to FastAPI", "I replaced my Kindle with a Kobo",
# "we use Redis instead of Memcached now", "I gave up on guitar, switched to piano". What was said of the old one
# stays true of its time and holds more than the choice (a long message, "a Flask app to manage orders for my
# bakery"), so it is kept and linked.
_THING = r"(?:(?:my|our|the|a|an) )?(?P<{}>[\w.+#\-]+(?: [\w.+#\-]+){{0,2}}?)"
_REPLACED = re.compile(
    r"\b(?:switch(?:ed|ing)?|migrat(?:e|ed|ing)|mov(?:e|ed|ing)|chang(?:e|ed|ing)|transition(?:ed|ing)?|"
    r"upgrad(?:e|ed|ing)|convert(?:ed|ing)?|port(?:ed|ing)?|go(?:ing)?|went)(?: \w+){0,3}? from " + _THING.format("old")
    + r" (?:to|over to) " + _THING.format("new") + r"(?=[.,;!?]|$| (?:for|because|since|as|and|but|now|last|this)\b)|"
    r"\breplac(?:e|ed|ing) " + _THING.format("old_b") + r" with " + _THING.format("new_b")
    + r"(?=[.,;!?]|$| (?:for|because|since|as|and|but|now|last|this)\b)|"
    # "I gave up on guitar, switched to piano", "quit the gym and took up climbing", "sold the Civic and bought a Tesla"
    r"\b(?:gave up|give up|giving up|quit|stopped|dropped|ditched|sold|traded in|got rid of)(?: on)? "
    + _THING.format("old_c")
    + r"(?:,|;| and| so)(?: (?:i|i'm|i've|now|and|so|just|then))* (?:switched|moved|changed|went|turned|started|"
    r"took up|picked up|bought|got|leased|ordered)(?: over)?(?: to| on| learning| playing| doing)? "
    + _THING.format("new_c")
    + r"(?=[.,;!?]|$| (?:for|because|since|as|and|but|now|last|this|instead)\b)", CI)


def replaced(content: str) -> str:
    """The words of the thing this content says was replaced ("Flask"), or ""."""
    match = _REPLACED.search(content)
    if match is None:
        return ""
    old = match.group("old") or match.group("old_b") or match.group("old_c")
    new = match.group("new") or match.group("new_b") or match.group("new_c")
    if old.lower() == new.lower() or any(char.isdigit() for char in old) or TIME_WORD.match(old):
        return ""  # a number is a measure (above); a day or a time moves an event (reconcile.rescheduled)
    return old


def earlier_values(user_id: str, content: str, said_by: str) -> tuple[list[Memory], list[Memory]]:
    """(active memories of the user this content says it updates, those it may update: kept and linked)."""
    given = measures(content)
    if not given:
        return [], (_replaced_earlier(user_id, content, said_by) or _said_instead(user_id, content, said_by)
                    or _new_thing_earlier(user_id, content, said_by))
    lookup = _lookup_query(given)
    if lookup:
        rows = _ranked_by_words(user_id, lookup)
    elif any(m.updated and m.short and not m.topic for m in given):
        # "Actually, let's make it €2,000": no word to look up by, the latest memories said it
        rows = Memory.objects.filter(user_id=user_id, status=Status.ACTIVE).without_vectors().order_by(
            "-created_at")[:LOOKUP_LIMIT]
    else:  # "%" alone: nothing to look up by
        return [], []
    updated, maybe = [], []
    for memory in rows:
        if not _same_side(memory, said_by):
            continue
        pairs = [new for new in given for old in measures(memory.content) if same_measure(new, old)]
        if pairs:
            # A long message holds more than the value: it is kept beside its update, which search puts first.
            says_so = any(new.updated for new in pairs) and is_short(content) and is_short(memory.content)
            (updated if says_so else maybe).append(memory)
    if not any(m.topic for m in given):
        updated = sorted(updated, key=lambda m: m.created_at, reverse=True)[:1]
    linked = {memory.pk for memory in updated + maybe}
    maybe += [m for m in _replaced_earlier(user_id, content, said_by) if m.pk not in linked]
    return updated, maybe or ([] if updated else _said_instead(user_id, content, said_by))


def _same_side(memory: Memory, said_by: str) -> bool:
    """Both said by the assistant, or neither: one side never updates the other's words."""
    return ((memory.details or {}).get("said_by", "") == SAID_BY_ASSISTANT) == (said_by == SAID_BY_ASSISTANT)


def _ranked_by_words(user_id: str, tsquery: str):
    """The user's active memories holding any of the raw tsquery's words, among the user's own full-text postings
    (memories/user_words.py), those sharing most first, then the latest."""
    query = SearchQuery(tsquery, config="english", search_type="raw")
    return (Memory.objects.alias(words=UserWords())
            .filter(user_id=user_id, status=Status.ACTIVE, words=query & UserToken(user_id))
            .annotate(shared=SearchRank(F("search_vector"), query)).without_vectors()
            .order_by("-shared", "-created_at")[:LOOKUP_LIMIT])


def _replaced_earlier(user_id: str, content: str, said_by: str) -> list[Memory]:
    """Active memories of the user, said on the same side, that name the thing this content replaces."""
    old = replaced(content)
    words = [word for word in _LEXEME.findall(old.lower()) if word not in _NOT_TOPIC]
    if not words:
        return []
    query = SearchQuery(" ".join(words), config="english")
    rows = (Memory.objects.alias(words=UserWords())
            .filter(user_id=user_id, status=Status.ACTIVE, words=query & UserToken(user_id)).without_vectors()
            .order_by("-created_at")[:LOOKUP_LIMIT])
    return [memory for memory in rows
            if _same_side(memory, said_by) and not _REPLACED.search(memory.content)]


# A change said without naming what it replaces: "I've switched to learning Italian instead", "I signed up for the
# full marathon instead of the half", "these days I wake up at 7:30", and in a short statement "Yoga got moved to
# Thursdays", "Finally upgraded to the iPhone 16", "so now my go-to is Zuni Cafe". The latest memory on the same
# topic is linked.
_INSTEAD = re.compile(r"\b(?:instead|these days|nowadays|any more|anymore|no longer)\b", CI)
_MOVED = re.compile(r"\b(?:mov(?:e|ed|ing)|chang(?:e|ed|ing)|switch(?:ed|ing)?|migrat(?:e|ed|ing)|pushed|shifted|"
                    r"rescheduled|bumped|upgraded|downgraded)"
                    r"(?: \w+){0,2}? to\b", CI)
_NOT_INSTEAD_TOPIC = frozenset("""instead nowadays anymore longer because switched signed started decided moved changed
pushed shifted rescheduled bumped upgraded downgraded back weekend finally move moving change changing switch
switching migrate migrated migrating""".split())


def _topic_words(text: str) -> set[str]:
    return {word for word in _LEXEME.findall(text.lower())
            if len(word) > 3 and word not in _NOT_TOPIC and word not in _NOT_INSTEAD_TOPIC
            and not TIME_WORD.fullmatch(word)}


def _topic_stems(text: str) -> set[str]:
    return {word[:5] for word in _topic_words(text)}


def _said_instead(user_id: str, content: str, said_by: str) -> list[Memory]:
    """The latest active memory, said on the same side, sharing the most topic words with a change said with
    "instead", "these days", "no longer"…: one word in common for a short statement, two for a long one."""
    if not (_INSTEAD.search(content) or (is_short(content) and (_MOVED.search(content) or UPDATE_CUE.search(content)))):
        return []
    words = _topic_words(content)
    if not words:
        return []
    stems, needed = {word[:5] for word in words}, 1 if is_short(content) else 2
    for memory in _ranked_by_words(user_id, " | ".join(sorted(words))):
        if (_same_side(memory, said_by) and not _INSTEAD.search(memory.content)
                and len(stems & _topic_stems(memory.content)) >= needed):
            return [memory]
    return []


# "My new phone number is 555-9876", "new address: 12 Elm St": a thing of the user's said anew.
_NEW_THING = re.compile(r"\b(?:my|our) new (?P<thing>[a-z]+(?: [a-z]+)?) (?:is|are)\b|"
                        r"^\W*new (?P<thing_b>[a-z]+(?: [a-z]+)?):", CI)


def _new_thing_earlier(user_id: str, content: str, said_by: str) -> list[Memory]:
    """The latest active memory, said on the same side, holding every word of the thing said anew
    (`_NEW_THING`), unless it says itself that it is new."""
    match = _NEW_THING.search(content)
    if match is None:
        return []
    words = [word for word in _LEXEME.findall((match.group("thing") or match.group("thing_b")).lower())
             if word not in _NOT_TOPIC]
    if not words:
        return []
    for memory in _ranked_by_words(user_id, " & ".join(words)):
        if _same_side(memory, said_by) and not _NEW_THING.search(memory.content):
            return [memory]
    return []


def besides_the_value(text: str) -> str:
    """What a short "let's make it …" message says beside its new value ("my sister is joining"), or ""."""
    parts = [part.strip(" .!") for part in _COMMA.split(text)]
    rest = [part for part in parts if len(part.split()) >= 2 and not _MAKE_IT.search(part) and not _MONEY.search(part)
            and not _NUMBER.search(part)]
    return ", ".join(rest) if len(rest) < len(parts) else ""


def restated(new: str, old: str) -> str:
    """"Let's make it €2,000" after "My budget for the trip is €1,500": "My budget for the trip is €2,000." —
    the earlier statement with the new amount or number, so the update says what it is of; "" when unclear."""
    for pattern in (_MONEY, _NUMBER):
        new_values, old_values = list(pattern.finditer(new)), list(pattern.finditer(old))
        if len(new_values) == 1 and len(old_values) == 1:
            value = new_values[0].group(0) if pattern is _MONEY else new_values[0].group("value")
            start, end = old_values[0].span(0 if pattern is _MONEY else "value")
            return old[:start] + value + old[end:]
    return ""
