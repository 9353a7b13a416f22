"""A later value for the same measure supersedes the earlier one: "the build now takes 4 minutes" after "the
build takes 11 minutes", "we're up to 40 beta users" after "we have 25 beta users".

The seed's "supersede readily" goes beyond the fixed attributes (residence, employer, diet) reconcile knows
by name: a statement giving a number for a measure (the words after the number, "minutes", "beta users")
about a topic (the content words of its clause, "build") is an update of an earlier active memory of the
user's that gives another number for the same measure and shares a topic word, when the same clause says so
("now", "up to", "grew to", "changed to", "no longer", "instead of", …: UPDATE_CUE). Without such a word both
are kept
and the later one names the earlier in `details.updates` (a chain GET /memories/<id> shows); ranking orders
the fresher first among equals. What the assistant said never updates what the user said, nor the reverse.
Reads only (one query for a candidate that gives a number); persist supersedes.
"""
import re
from dataclasses import dataclass

from django.contrib.postgres.search import SearchQuery, SearchRank
from django.db.models import F

from memories.models import SAID_BY_ASSISTANT, Memory, Status

CI = re.IGNORECASE
UPDATE_CUE = re.compile(
    r"\b(?:now|currently|these days|up to|down to|(?:has |have )?(?:grown|grew|increased|decreased|dropped|fell|"
    r"rose|risen|climbed|improved|changed|switched|moved|gone|went|shrunk|jumped|doubled|halved) (?:from .{1,40}? )?"
    r"to|no longer|not anymore|instead of|anymore|updated?|revised|actually)\b", CI)
_NUMBER = re.compile(r"(?<![\w.])(?P<value>\d+(?:[.,]\d+)?)\s*(?P<measure>%|percent\b|(?:[a-z][a-z\-]*)"
                     r"(?: (?!(?:and|or|but|in|on|at|to|for|of|per|a|an|the|now|with)\b)[a-z][a-z\-]*)?)", CI)
_CLAUSE = re.compile(r"[.;!?]|,\s+(?:and|but|so)\b")
_WORD = re.compile(r"[a-z][a-z\-]{2,}")
_NOT_TOPIC = frozenset("""
after before the and but for with from into onto our ours your yours their they them this that these those there here what
which who when where how was were are is be been being has have had having does did doing done not now
currently about around roughly approximately nearly almost just only still also very really quite some any
all each every more most less least than then too its it's i'm we're you're we've i've up down take takes
took taking make makes made get gets got getting per over under since after before while last next this
week weeks day days month months year years today yesterday tomorrow time times lately recently so
""".split())
LOOKUP_LIMIT = 20
_LEXEME = re.compile(r"[a-z]+")  # a word to_tsquery takes as it is
# Words that are a measure by themselves: the word after them is not part of it.
_MEASURE_WORDS = frozenset("""
minute second hour ms user customer request line test table row page word item unit subscriber member signup
order euro dollar mile kilometre kilometer km kg pound calorie step file star download view follower
""".split())


@dataclass(frozen=True)
class Measure:
    value: float
    measure: str  # the word after the number, singular: "minute", "user"
    topic: frozenset  # the clause's other content words
    updated: bool = False  # its clause says it is a new value ("now takes", "up to")


def measures(text: str) -> list[Measure]:
    """Each number the text gives for a measure, with the topic words of its clause."""
    found = []
    for clause in _CLAUSE.split(text):
        words = {w for w in _WORD.findall(clause.lower()) if w not in _NOT_TOPIC and not UPDATE_CUE.fullmatch(w)}
        updated = bool(UPDATE_CUE.search(clause))
        for match in _NUMBER.finditer(clause):
            measure_words = match.group("measure").lower().split()
            if len(measure_words) > 1 and (measure_words[1] in _NOT_TOPIC or not _WORD.fullmatch(measure_words[1])
                                           or _singular(measure_words[0]) in _MEASURE_WORDS):
                measure_words = measure_words[:1]  # "4 minutes after caching", "3 users signed up"
            head = _singular(measure_words[-1])
            if head in _NOT_TOPIC or UPDATE_CUE.fullmatch(head):
                continue
            value = float(match.group("value").replace(",", "."))
            topic = frozenset(_singular(w) for w in (words - set(measure_words)) | set(measure_words[:-1]))
            found.append(Measure(value, head, topic, updated))
    return found


def _singular(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def same_measure(new: Measure, old: Measure) -> bool:
    """The same measure of the same thing, with another value."""
    return new.measure == old.measure and new.value != old.value and bool(new.topic & old.topic)


def _lookup_query(given: list[Measure]) -> str:
    """to_tsquery text: one of the measures and one of their topic words (ranked by how many they share). A
    measure word alone ("request", "minute") is in most memories of a long technical chat, and the earlier
    value fell out of the newest LOOKUP_LIMIT of them."""
    names = {m.measure for m in given if _LEXEME.fullmatch(m.measure)}
    measures_ = " | ".join(sorted(names))
    topics = " | ".join(sorted({w for m in given for w in m.topic if _LEXEME.fullmatch(w)} - names))
    return f"({measures_}) & ({topics})" if topics else measures_


def earlier_values(user_id: str, content: str, said_by: str) -> tuple[list[Memory], list[Memory]]:
    """(active memories of the user this content says it updates, those it may update: kept and linked)."""
    given = measures(content)
    if not given:
        return [], []
    if not any(_LEXEME.fullmatch(m.measure) for m in given):  # "%" only: nothing to look up by
        return [], []
    query = SearchQuery(_lookup_query(given), config="english", search_type="raw")
    rows = (Memory.objects.filter(user_id=user_id, status=Status.ACTIVE, search_vector=query)
            .annotate(shared=SearchRank(F("search_vector"), query)).without_vectors()
            .order_by("-shared", "-created_at")[:LOOKUP_LIMIT])
    updated, maybe = [], []
    for memory in rows:
        if ((memory.details or {}).get("said_by", "") == SAID_BY_ASSISTANT) != (said_by == SAID_BY_ASSISTANT):
            continue
        pairs = [new for new in given for old in measures(memory.content) if same_measure(new, old)]
        if pairs:
            (updated if any(new.updated for new in pairs) else maybe).append(memory)
    return updated, maybe
