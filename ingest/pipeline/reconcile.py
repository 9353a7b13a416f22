"""Stage 5, reconcile: compare each candidate with what the user's memory already holds.

- Near-duplicate (same user, type and subject; normalized text equal, or rapidfuzz
  token_sort_ratio ≥ `memory.duplicate_similarity_threshold`; events must also
  fall on the same day; never when they differ in an identifier, number, date,
  amount or name: "part kz0q0" and "part kz4q0" are two memories) → the
  candidate becomes a reinforcement of that memory.
- Same subject + attribute (residence, employer, diet, prefers:meetings, …) with a
  new value → the old active memories are marked for supersession.
- A new number for the same measure ("the build now takes 4 minutes") → the
  earlier value is superseded when the candidate says it changed, else linked
  (`value_updates.py`).
- An inferred pattern (infer) → the preference already inferred from the same
  behaviour counts this session too (`patterns.pattern_reconciled`), or a new one.
Reads only; persist applies the decisions in the message's transaction.

The near-duplicate lookup runs for almost every candidate, so its SQL is written
by hand: compiling the equivalent queryset took the ORM longer than PostgreSQL
takes to run it.
"""
import re

from rapidfuzz import fuzz

from ingest.pipeline.base import Candidate, IngestContext, Stage, WorkItem
from ingest.pipeline.dates import TIME_WORD
from ingest.pipeline.patterns import is_inferred_pattern, pattern_reconciled
from ingest.pipeline.value_updates import besides_the_value, earlier_values, is_short, measures, restated
from memories.models import MEMORY_ROW_FIELDS, Memory, Status
from memories.user_words import holds, user_token
from recall_site.config import recall_setting
from recall_site.raw_models import columns, models_from_sql

LOOKUP_LIMIT = 50
KEY_WORDS = 3
_WORDS = re.compile(r"[a-z0-9]{3,}")
_TOKEN = re.compile(r"[\w$€£.,:/\-]*\d[\w$€£.,:/\-]*")
_NAME_WORD = re.compile(r"(?<![.!?:]\s)(?<!^)(\s)([A-Z][\w'’\-]+)")
_NEGATION = re.compile(r"\b(?:not|no longer|never|isn't|aren't|don't|doesn't|didn't)\b", re.IGNORECASE)
_COLUMNS = columns(MEMORY_ROW_FIELDS)  # whole rows: a match may become the reinforced memory
VALUE_TYPES = {"event", "fact"}  # what may give a new value for a measure (value_updates.py)
# An event said to have moved to another time: the kind of event it is, for finding the one it moves.
_EVENT_KIND = (r"(?P<kind>meeting|call|lunch|dinner|breakfast|brunch|appointment|session|sync|standup|interview|"
               r"review|class|lesson|party|flight|dentist|demo|presentation|trip|date|game|concert|visit|wedding|exam|"
               r"surgery|vacation|holiday|reunion|recital|ceremony|graduation|shift|check-?up|haircut|match|"
               r"practice|rehearsal|shower|meetup|conference|workshop|webinar|training|offsite|retreat|launch|"
               r"release|deadline|hackathon|tournament|race|festival|performance|show|gig|screening|tasting)s?")
_RESCHEDULED = re.compile(rf"\b{_EVENT_KIND}\b.*?\b(?:moved|rescheduled|pushed(?: back)?|postponed|shifted|changed)\b"
                          r"(?: \w+){0,2} (?:to|until|till)\b|"
                          # "we pushed the trip to April"
                          r"\b(?:moved|rescheduled|pushed|postponed|shifted)(?: back)? (?:the|our|my|that|this) "
                          r"(?:\w+ )?"
                          rf"{_EVENT_KIND.replace('kind', 'kind_after')}\b(?: \w+){{0,3}}? (?:to|until|till)\b",
                          re.IGNORECASE)
_KIND_WORDS = re.compile(rf"\b{_EVENT_KIND}\b", re.IGNORECASE)
# "The dinner with Sarah is cancelled", "we called off the trip with Dana": the event is off, whatever its day.
_CANCELLED = re.compile(rf"\b{_EVENT_KIND}\b.*?\b(?:is|was|got|has been|'s|are|were) (?:cancell?ed|called off|off)\b|"
                        rf"\b(?:cancell?ed|called off|cancel(?:ling)?) (?:(?:the|our|my|that|this|his|her|their) )?"
                        rf"{_EVENT_KIND.replace('kind', 'kind_after')}\b",
                        re.IGNORECASE)


def normalized_text(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.casefold()))


def near_duplicate(user_id: str, candidate: Candidate) -> Memory | None:
    """The active memory this candidate repeats, if any (the most similar of the lexical matches)."""
    threshold = recall_setting("memory.duplicate_similarity_threshold")
    wanted = normalized_text(candidate.content)
    best, best_score = None, threshold
    said_by = candidate.details.get("said_by", "")
    for memory in lexical_matches(user_id, candidate):
        if not _same_day(memory.valid_from, candidate.valid_from, candidate.type):
            continue
        if (memory.details or {}).get("said_by", "") != said_by:
            continue  # the assistant repeating the user confirms nothing, nor the other way round
        existing = normalized_text(memory.content)
        score = 100.0 if existing == wanted else fuzz.token_sort_ratio(existing, wanted)
        if score >= best_score and particulars(memory.content) == particulars(candidate.content):
            best, best_score = memory, score
    return best


def particulars(text: str) -> tuple[frozenset, frozenset, bool]:
    """What makes two similar texts different memories: their identifiers, numbers, dates and amounts (any
    word with a digit: "kz0q0", "11", "2026-05-01", "$40"), their names (capitalised words after a
    sentence's first) and whether they say no ("Not allergic to shellfish" repeats nothing of "Allergic to
    shellfish": it takes it back)."""
    tokens = _TOKEN.findall(text)
    numbers = frozenset(token.casefold().rstrip(".,:/-") for token in tokens if any(c.isdigit() for c in token))
    names = frozenset(word for _, word in _NAME_WORD.findall(text))
    return numbers, names, bool(_NEGATION.search(text))


def lexical_matches(user_id: str, candidate: Candidate):
    """Active memories of the candidate's user, type and subject that contain its longest words (whole rows)."""
    subject = candidate.subject.entity if candidate.subject else None
    conditions = ["user_id = %s", "type = %s", "status = %s", "subject_id = %s" if subject else "subject_id IS NULL"]
    params = [user_id, candidate.type, Status.ACTIVE] + ([subject.pk] if subject else [])
    # A near-duplicate shares the candidate's longest words: an AND of those hits the GIN index selectively,
    # among the user's own postings (memories/user_words.py). plainto_tsquery ANDs the words' lexemes (stop
    # words dropped), as the search_vector column was built.
    words = sorted(set(_WORDS.findall(candidate.content.casefold())), key=lambda w: (-len(w), w))[:KEY_WORDS]
    if words:
        conditions.append(holds("plainto_tsquery('english', %s)", "%s", alias=""))
        params.extend([" ".join(words), user_token(user_id)])
    sql = f"SELECT {_COLUMNS} FROM {Memory._meta.db_table} WHERE {' AND '.join(conditions)} LIMIT {LOOKUP_LIMIT}"
    return models_from_sql(Memory, MEMORY_ROW_FIELDS, sql, params)


def _same_day(existing, new, memory_type: str) -> bool:
    if memory_type != "event" or existing is None or new is None:
        return True
    return existing.date() == new.date()


def superseded_by_candidate(user_id: str, candidate: Candidate) -> list[Memory]:
    subject = candidate.subject.entity if candidate.subject else None
    if not candidate.attribute or subject is None:
        return []
    return list(Memory.objects.filter(user_id=user_id, subject=subject, attribute=candidate.attribute,
                                      status=Status.ACTIVE).only("pk", "user_id", "session_id", "content",
                                                                           "source_message_ids"))


class Reconcile(Stage):
    name = "reconcile"

    def run(self, item: WorkItem, context: IngestContext) -> None:
        reconcile_candidates(item.candidates, context)


def reconcile_candidates(candidates: list[Candidate], context: IngestContext) -> None:
    for candidate in candidates:
        if is_inferred_pattern(candidate):
            pattern_reconciled(candidate, context)
        elif existing := near_duplicate(context.user_id, candidate):
            candidate.action, candidate.existing = "reinforce", existing
        else:
            candidate.supersedes = (superseded_by_candidate(context.user_id, candidate)
                                    or rescheduled(context.user_id, candidate) or finished(context.user_id, candidate))
            if candidate.supersedes and candidate.attribute.startswith("prefers:"):
                candidate.content = with_context_kept(candidate.content, candidate.supersedes[0].content,
                                                      candidate.attribute.removeprefix("prefers:"))
            if not candidate.supersedes and candidate.type in VALUE_TYPES:
                _value_updates(candidate, context)


def with_context_kept(new: str, old: str, head: str) -> str:
    """"Actually I prefer aisle seats now" after "Prefers window seats on flights": the new preference is of
    aisle seats on flights too; what the old one said after the thing preferred is kept when the new one ends
    with it (`head`, the attribute's word)."""
    qualifier = re.search(rf"\b{re.escape(head)}\b(?P<rest> (?:on|for|in|at|when|during|with) [^,.;]+)$", old,
                          re.IGNORECASE)
    if qualifier and re.search(rf"\b{re.escape(head)}$", new, re.IGNORECASE):
        return new + qualifier.group("rest")
    return new


# A date said again as a correction: "Scratch that, the team offsite is on Wednesday".
_CORRECTED = re.compile(r"^\W*(?:scratch that|correction|sorry|oops|wait|actually|no|i meant)\b[\s,:;.!-]*"
                        r"(?:the|our|my) "
                        r"(?P<thing>(?:[\w\-]+ ){0,2}[\w\-]+) (?:is|'s|will be)(?: now| actually)? (?:on|at|in)\b",
                        re.IGNORECASE)


def rescheduled(user_id: str, candidate: Candidate) -> list[Memory]:
    """"The meeting with Dana moved to Thursday": the latest active event of the same kind with the same
    people ("a meeting with Dana on Tuesday at 10am") on another day is superseded by the new date; "the dinner
    with Sarah is cancelled" supersedes the latest such event whatever its day, and "the dentist cancelled my
    appointment", naming nobody, the latest event of those kinds (a dentist appointment) not before it."""
    if candidate.type != "event":
        return []
    moved = _RESCHEDULED.search(candidate.content) if candidate.valid_from else None
    if not moved and candidate.valid_from and (corrected := _CORRECTED.search(candidate.content)):
        # The wrong date said plainly is taken back; a longer message that gave it is kept, after the correction.
        wrong = [memory for memory in _latest_events(user_id, corrected.group("thing"))
                 if memory.valid_from.date() != candidate.valid_from.date()][:1]
        if wrong and is_short(wrong[0].content):
            return wrong
        candidate.details["updates"] = [memory.pk for memory in wrong]
        return []
    kind = moved or _CANCELLED.search(candidate.content)
    names = {name for name in particulars(candidate.content)[1] if not TIME_WORD.fullmatch(name)}
    if kind is None:
        return []
    kind_word = (kind.group("kind") or kind.group("kind_after")).lower()
    if not names and not moved:  # "the dentist cancelled my appointment": the latest one still to come
        kinds = " ".join(dict.fromkeys(word.lower() for word in _KIND_WORDS.findall(candidate.content)))
        return [memory for memory in _latest_events(user_id, kinds) if not _CANCELLED.search(memory.content) and (
            not candidate.valid_from or memory.valid_from.date() >= candidate.valid_from.date())][:1]
    if not names:  # "we pushed the trip to April": the latest trip, which said more (where, with whom), is linked
        candidate.details["updates"] = [memory.pk for memory in _latest_events(
            user_id, _SAID_AS.get(kind_word, kind_word))[:1]]
        return []
    words = " ".join([kind_word, *sorted(names)])
    return [memory for memory in _latest_events(user_id, words) if particulars(memory.content)[1] >= names and not
            _CANCELLED.search(memory.content) and (not moved or memory.valid_from.date() != candidate.valid_from.date())
            ][:1]


# "Finished The Hobbit!", "just finished reading Dune": a title the user was in the middle of is done.
_FINISHED = re.compile(r"\b(?i:finished|done with|completed|wrapped up)(?i: reading| watching| playing| listening to)? "
                       r"(?P<title>(?:[Tt]he |[Aa] )?[A-Z][\w'’\-]*(?: (?:of|the|and|in|[A-Z][\w'’\-]*))*)")
_UNDER_WAY = re.compile(r"\b(?:i'm|i am|currently|been|started|starting|still|halfway through)(?: \w+)? (?:reading|"
                        r"watching|playing|listening to|re-?reading|binging|bingeing)\b", re.IGNORECASE)


def finished(user_id: str, candidate: Candidate) -> list[Memory]:
    """"Finished The Hobbit!": the latest active event saying the user was in the middle of it ("I'm reading The
    Hobbit") is superseded: it is no longer under way, and the new event says it was read."""
    if candidate.type != "event" or not (match := _FINISHED.search(candidate.content)):
        return []
    return [memory for memory in _latest_events(user_id, match.group("title"))
            if _UNDER_WAY.search(memory.content) and not _FINISHED.search(memory.content)][:1]


# An event said by what one does: "I'm flying to Berlin on March 3rd" is the flight that "got moved".
_SAID_AS = {"flight": "flight | flying | flew"}


def _latest_events(user_id: str, words: str) -> list[Memory]:
    """The user's five latest active dated events holding all these words (or, with "|", any of them)."""
    words_held = holds(f"{'to' if '|' in words else 'plainto'}_tsquery('english', %s)", "%s", alias="")
    sql = (f"SELECT {_COLUMNS} FROM {Memory._meta.db_table} WHERE user_id = %s AND type = 'event' AND status = %s"
           f" AND valid_from IS NOT NULL AND {words_held} ORDER BY created_at DESC LIMIT 5")
    return models_from_sql(Memory, MEMORY_ROW_FIELDS, sql, [user_id, Status.ACTIVE, words, user_token(user_id)])


def _value_updates(candidate: Candidate, context: IngestContext) -> None:
    """"The build now takes 4 minutes": the earlier "takes 11 minutes" is superseded; without "now", linked."""
    updated, maybe = earlier_values(context.user_id, candidate.content, candidate.details.get("said_by", ""))
    candidate.supersedes = updated
    if len(updated) == 1 and not any(m.topic for m in measures(candidate.content)) and (
            restatement := restated(candidate.content, updated[0].content)):
        if besides := besides_the_value(candidate.content):  # "…, my sister is joining" is kept too
            restatement = f"{restatement.rstrip('.')}; {besides}"
        candidate.details["said"], candidate.content = candidate.content, restatement
        candidate.domain = updated[0].domain  # the same statement, with its new value ("Down to 172 pounds!")
    linked = list(dict.fromkeys([*candidate.details.get("updates", ()), *(memory.pk for memory in updated + maybe)]))
    if linked:
        candidate.details["updates"] = linked
    if maybe and not updated and is_short(candidate.content) and not candidate.sensitive:
        # A short change ("We pushed bedtime to 8:30") is of what it updates, filed where that was ("The kids'
        # bedtime is 8pm", relationship): tagged apart, a question's gate would read the stale value alone.
        candidate.domain = max(maybe, key=lambda memory: memory.created_at).domain
