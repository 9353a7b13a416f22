"""The rule-based extractor (the default): offline, deterministic regular expressions.

It knows the seed's forms: plans with a time ("lunch with Sarah Thursday" → event
with valid_from), preferences ("I prefer morning meetings" → "prefers morning
meetings"), relations ("Alex is Sarah's partner", "Sarah is my manager", "my sister
Emma"), biographical facts with an attribute (residence, employer, name, diet…),
health facts, and hedged inferences ("user seemed stressed"), which only ever become
low-confidence preference candidates sent to review — never facts.

A relevant message that matches no pattern is NOT dropped: it is kept as an
episodic event holding the user's own words (`details.episodic`), at low
importance, linked to any names it mentions. Dropping it would silently lose
what the user chose to tell us; its low importance and the event half-life make
it fade unless it is reinforced.
"""
import re

from memories.pipeline.base import Candidate, Mention, Message, RelationSpec
from memories.pipeline.dates import resolve_when
from memories.pipeline.names_in_text import ROLE_WORDS, is_name, named_mentions, role_mentions
from recall_site.config import recall_setting

CI = re.IGNORECASE
NAME = r"(?P<{}>[A-Z][\w'’\-]*(?: [A-Z][\w'’\-]*){{0,2}})"
ROLE = "(?P<role>" + "|".join(sorted(map(re.escape, ROLE_WORDS), key=len, reverse=True)) + ")"
BIOGRAPHICAL = {"residence", "employer", "name", "birthday", "occupation", "hometown"}
# Roles one person holds at a time: a new holder supersedes the old relation memory.
EXCLUSIVE_ROLES = {"manager_of", "partner_of"}

_PREFIX = re.compile(r"^\W*(remember( that)?|fyi|btw|by the way|just so you know|note that|for the record|"
                     r"oh|so|well|also|and|actually|anyway)\b[\s,:]*", CI)
_SENTENCES = re.compile(r"(?<=[.!?;])\s+")

_INFERENCE = re.compile(
    r"\b(?:the user|user|he|she|they|you|i)\s+(?:seem(?:s|ed)?|appear(?:s|ed)?|look(?:s|ed)?|sound(?:s|ed)?|"
    r"might be|may be|must be|was probably|is probably)\s+(?:to be\s+|really\s+|very\s+|a bit\s+|kind of\s+|"
    r"quite\s+|pretty\s+|a little\s+)*(?P<state>[a-z]+)", CI)
_RELATION_OF = re.compile(NAME.format("a") + r" is " + NAME.format("b") + r"(?:'s|’s) " + ROLE)
_MY_ROLE_IS = re.compile(r"(?i:\bmy )" + ROLE + r"(?i: is(?: called| named)?) " + NAME.format("a"))
_IS_MY_ROLE = re.compile(NAME.format("a") + r" (?i:is|was|has been|became) (?i:my(?: new)?) " + ROLE + r"\b")
_MY_ROLE_NAME = re.compile(r"(?i:\bmy )" + ROLE + r",? " + NAME.format("a"))
_WORKS_AT = re.compile(NAME.format("a") + r" (?i:works|is working) (?i:at|for) " + NAME.format("org"))
_RESIDENCE = re.compile(
    r"(?i:\b(?:i(?:'ve| have)? )?(?:just |recently |finally |now )?(?:moved|relocated)(?: back)? to |"
    r"\bi(?: now)? (?:live|am living|'m living) in |\bi'?m (?:now )?based in |\bi am (?:now )?based in )"
    + NAME.format("place"))
_EMPLOYER = re.compile(
    r"(?i:\bi(?: now| currently)? (?:work|am working|'m working) (?:at|for) |"
    r"\bi (?:just )?(?:started|joined)(?: (?:a new job|working))?(?: at)? |\bmy new job at |"
    r"\bi'?m an? [a-z ]{3,30} at |\bi am an? [a-z ]{3,30} at )" + NAME.format("org"))
_NAME = re.compile(r"(?i:\bmy name is |\bcall me )" + NAME.format("a"))
_BIRTHDAY = re.compile(r"\bmy birthday is (?:on )?(?P<date>[\w ]+)", CI)
_DIET = re.compile(r"\bi(?:'m| am)(?: now| a| now a)? (?P<diet>vegetarian|vegan|pescatarian|keto|gluten[- ]free|"
                   r"lactose intolerant|dairy[- ]free|teetotal|sober)\b", CI)
_ALLERGY = re.compile(r"\bi(?:'m| am) (?:severely |very )?allergic to (?P<what>[\w ,\-]+)", CI)
_CONDITION = re.compile(r"\bi (?:have|was diagnosed with|suffer from|take|'m taking|am taking) (?P<what>"
                        r"(?:asthma|diabetes|migraines?|adhd|anxiety|depression|insomnia|high blood pressure|"
                        r"celiac disease|eczema|arthritis|a bad back|back pain)|\w+ (?:daily|every (?:day|morning|night))"
                        r")\b", CI)
_PREFERENCE = re.compile(
    r"\bi(?: really| much| generally| usually| always| strongly| definitely)? (?P<verb>prefer|would rather|'d rather|"
    r"like|love|enjoy|hate|dislike|can't stand|cannot stand|don't like|do not like|don't enjoy)\s+(?P<what>[^.!?;]+)", CI)
_FAVORITE = re.compile(r"\bmy fav(?:ou?rite)? (?P<thing>[a-z ]{2,30}?) is (?P<what>[^.!?;]+)", CI)
_STANDING = re.compile(r"\b(?:please )?(?P<when>always|never) (?P<what>(?:use|reply|answer|write|send|call|book|"
                       r"schedule|remind|suggest|give|keep|include|mention|bring up)\b[^.!?;]*)", CI)
_EVENT_WORDS = re.compile(
    r"\b(lunch|dinner|breakfast|brunch|coffee|meeting|call|appointment|interview|flight|trip|party|wedding|"
    r"conference|visit(?:ing)?|check-?up|drinks|concert|review|standup|1:1|one-on-one|deadline|demo|"
    r"presentation|class|lesson|vacation|holiday|date night|game|match|recital|surgery|exam|workout|"
    r"coming over|flying|seeing|meeting up)\b", CI)
_RESCHEDULE = re.compile(r"\b(moved|rescheduled|pushed( back)?|postponed|cancell?ed|shifted|declined|skipped)\b.*"
                         r"\b(meeting|call|commitment|standup|1:1|appointment|session|sync)s?\b", CI)
PREFERENCE_VERBS = {
    "prefer": "prefers", "would rather": "prefers", "'d rather": "prefers", "like": "likes", "love": "loves",
    "enjoy": "enjoys", "hate": "dislikes", "dislike": "dislikes", "can't stand": "dislikes",
    "cannot stand": "dislikes", "don't like": "dislikes", "do not like": "dislikes", "don't enjoy": "dislikes",
}


def extract_candidates(message: Message) -> list[Candidate]:
    """Every candidate memory in one user message (at least one: see the module docstring)."""
    text = _PREFIX.sub("", message.content.strip()).strip()
    candidates = []
    for sentence in filter(None, (s.strip() for s in _SENTENCES.split(text))):
        candidates += _sentence_candidates(_PREFIX.sub("", sentence), message)
    return candidates or [_episodic(text, message)]


def _sentence_candidates(sentence: str, message: Message) -> list[Candidate]:
    if match := _INFERENCE.search(sentence):
        return [_inference(sentence, match)]
    found = _relations(sentence) + _self_facts(sentence) + _preferences(sentence)
    event = _event(sentence, message)
    return found + ([event] if event else [])


def _inference(sentence: str, match) -> Candidate:
    """Hedged observations are never facts: a preference candidate at inference confidence, for review."""
    return Candidate(
        type="preference", content=f"Seemed {match.group('state').lower()} (unconfirmed inference)",
        confidence=recall_setting("memory.inference_confidence"), importance=_importance("inferred"),
        mentions=[_self()], subject=None, needs_review=True, review_reason="inferred",
        details={"inferred": True, "text": sentence},
    )


def _relations(sentence: str) -> list[Candidate]:
    found = []
    if (match := _RELATION_OF.search(sentence)) and is_name(match.group("a")) and is_name(match.group("b")):
        predicate = ROLE_WORDS[match.group("role").lower()]
        a, b = Mention(match.group("a"), role="subject"), Mention(match.group("b"), role="object")
        found.append(_relation(f"{a.text} is {b.text}'s {match.group('role').lower()}", a, predicate, b))
    for pattern in (_IS_MY_ROLE, _MY_ROLE_IS, _MY_ROLE_NAME):
        if (match := pattern.search(sentence)) and is_name(match.group("a")):
            role = match.group("role").lower()
            person, me = Mention(match.group("a"), role="subject", role_phrase=f"my {role}"), _self("object")
            relation = _relation(f"{person.text} is the user's {role}", person, ROLE_WORDS[role], me)
            if ROLE_WORDS[role] in EXCLUSIVE_ROLES:
                relation.subject, relation.attribute = me, f"role:{ROLE_WORDS[role]}"
            found.append(relation)
            break
    if match := _WORKS_AT.search(sentence):
        if is_name(match.group("a")):
            person, org = Mention(match.group("a"), role="subject"), Mention(match.group("org"), "org", "object")
            fact = _fact(f"{person.text} works at {org.text}", "employer", [person, org], subject=person)
            fact.relation, fact.domain = RelationSpec(person, "works_at", org), "professional"
            found.append(fact)
    return found


def _relation(content: str, subject: Mention, predicate: str, obj: Mention) -> Candidate:
    return Candidate(
        type="relation", content=content, confidence=recall_setting("memory.stated_confidence"),
        importance=_importance("relation"), mentions=[subject, obj], subject=subject,
        relation=RelationSpec(subject, predicate, obj), details={"predicate": predicate},
    )


def _self_facts(sentence: str) -> list[Candidate]:
    found = []
    if match := _RESIDENCE.search(sentence):
        place = Mention(match.group("place"), "place", "object")
        fact = _fact(f"Lives in {place.text}", "residence", [_self(), place])
        fact.relation, fact.domain = RelationSpec(fact.subject, "lives_in", place), "personal"
        found.append(fact)
    if match := _EMPLOYER.search(sentence):
        org = Mention(match.group("org"), "org", "object")
        fact = _fact(f"Works at {org.text}", "employer", [_self(), org])
        fact.relation, fact.domain = RelationSpec(fact.subject, "works_at", org), "professional"
        found.append(fact)
    if match := _NAME.search(sentence):
        found.append(_fact(f"Name is {match.group('a')}", "name", [_self()], domain="personal"))
    if match := _BIRTHDAY.search(sentence):
        found.append(_fact(f"Birthday is {match.group('date').strip()}", "birthday", [_self()], domain="personal"))
    if match := _ALLERGY.search(sentence):
        what = match.group("what").strip().rstrip(",")
        found.append(_fact(f"Allergic to {what}", "", [_self()], domain="health", importance=_importance("health_fact")))
    if match := _CONDITION.search(sentence):
        verb = "Takes" if re.search(r"\btak", match.group(0), CI) else "Has"
        found.append(_fact(f"{verb} {match.group('what').lower()}", "", [_self()], domain="health",
                           importance=_importance("health_fact")))
    if match := _DIET.search(sentence):
        found.append(_preference(f"Is {match.group('diet').lower()}", "diet", domain="personal"))
    return found


def _fact(content, attribute, mentions, *, subject=None, domain="", importance=None) -> Candidate:
    subject = subject or next((m for m in mentions if m.kind == "self"), None)
    half_life = recall_setting("decay.biographical_fact_half_life_days") if attribute in BIOGRAPHICAL else None
    return Candidate(
        type="fact", content=content, confidence=recall_setting("memory.stated_confidence"),
        importance=importance if importance is not None else _importance("fact"), mentions=mentions,
        subject=subject, attribute=attribute, half_life_days=half_life, domain=domain,
    )


def _preferences(sentence: str) -> list[Candidate]:
    found = []
    if match := _PREFERENCE.search(sentence):
        verb = PREFERENCE_VERBS[match.group("verb").lower()]
        what = _clean_object(match.group("what"))
        if what:
            attribute = f"prefers:{_head(what)}" if verb == "prefers" else f"taste:{what.lower()}"[:64]
            found.append(_preference(f"{verb.capitalize()} {what}", attribute, mentions=named_mentions(what)))
    if match := _FAVORITE.search(sentence):
        thing = match.group("thing").strip().lower()
        found.append(_preference(f"Favourite {thing} is {_clean_object(match.group('what'))}", f"favourite:{thing}"))
    if match := _STANDING.search(sentence):
        found.append(_preference(f"Wants the assistant to {match.group('when').lower()} "
                                 f"{_clean_object(match.group('what'))}", ""))
    return found


def _preference(content, attribute, *, mentions=(), domain="") -> Candidate:
    me = _self()
    return Candidate(
        type="preference", content=content, confidence=recall_setting("memory.preference_confidence"),
        importance=_importance("preference"), mentions=[me, *mentions], subject=me if attribute else None,
        attribute=attribute[:64], domain=domain,
    )


def _event(sentence: str, message: Message) -> Candidate | None:
    when = resolve_when(sentence, message.timestamp)
    if not (_EVENT_WORDS.search(sentence) and (when.at or when.phrase)) and not _RESCHEDULE.search(sentence):
        return None
    candidate = Candidate(
        type="event", content=_sentence_content(sentence), confidence=recall_setting("memory.stated_confidence"),
        importance=_importance("event"), mentions=named_mentions(sentence) + role_mentions(sentence),
        valid_from=when.at, details={"when": when.phrase} if when.phrase else {},
    )
    if _RESCHEDULE.search(sentence) and when.weekday and when.daypart:
        candidate.details["pattern_key"] = f"avoid:{when.weekday}:{when.daypart}"
    return candidate


def _episodic(text: str, message: Message) -> Candidate:
    when = resolve_when(text, message.timestamp)
    return Candidate(
        type="event", content=_sentence_content(text), confidence=recall_setting("memory.stated_confidence"),
        importance=_importance("episodic"), mentions=named_mentions(text) + role_mentions(text),
        valid_from=when.at or message.timestamp, details={"episodic": True},
    )


def _self(role: str = "subject") -> Mention:
    return Mention("me", kind="self", role=role)


def _importance(kind: str) -> float:
    return float(recall_setting("memory.importance")[kind])


def _clean_object(text: str) -> str:
    text = re.sub(r"\b(please|thanks|thank you|a lot|so much|very much|really|any ?more|these days|now)\b", "",
                  text, flags=CI)
    return re.sub(r"\s+", " ", text).strip(" ,.!?;:-")


def _head(what: str) -> str:
    """The thing a preference is about: "morning meetings over afternoon ones" → "meetings"."""
    core = re.split(r"\b(over|to|rather than|instead of|than|when|if|because|but|at|in|on|for|with)\b", what, flags=CI)[0]
    words = re.findall(r"[a-z]+", core.lower()) or re.findall(r"[a-z]+", what.lower())
    return words[-1] if words else what.lower()


def _sentence_content(sentence: str) -> str:
    sentence = re.sub(r"\s+", " ", sentence).strip()
    return sentence[:1].upper() + sentence[1:]
