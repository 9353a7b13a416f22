"""The rule-based extractor (the default): offline, deterministic regular expressions.

It knows the common forms: plans with a time ("lunch with Sarah Thursday" → event
with valid_from), preferences ("I prefer morning meetings" → "prefers morning
meetings"), relations ("Alex is Sarah's partner", "Sarah is my manager", "my sister
Emma"), biographical facts with an attribute (residence, employer, name, diet…),
health facts, and hedged inferences ("user seemed stressed"), which only ever become
low-confidence preference candidates sent to review — never facts. The forms about
people and pets live in people_rules.py, those the speaker says of themselves in
self_rules.py, and what they share in rule_forms.py; this module reads a message
sentence by sentence and adds preferences, events and the episodic copy.

A relevant message that matches no pattern is NOT dropped: it is kept as an
episodic event holding the user's own words (`details.episodic`), at low
importance, linked to any names it mentions, with `details.kind` saying what it
is (experience, opinion, plan or statement) and its own half-life
(`decay.episodic_half_life_days`: what was said, not an appointment). Dropping
it would silently lose what the user chose to tell us. A message whose typed
candidates leave much of it unsaid ("My sister Emma is visiting. She just got
engaged and …") keeps the episodic copy of its whole text as well.

Hedged sentences ("I think", "maybe", "probably") give every candidate at most
`memory.hedged_confidence`, under the sensitive gate. In a transcript line
("Caroline: I prefer tea", `Message.speaker`) "I" and "my" are the speaker, a
person, never the user: "Caroline prefers tea", and her words keep her name.
"""
import re

from ingest.pipeline.base import (
    Candidate,
    Mention,
    Message,
    as_said,
    default_confidence,
    default_importance,
    first_person,
)
from ingest.pipeline.dates import resolve_when
from ingest.pipeline.names_in_text import (
    ORG_ROLE_WORDS,
    named_mentions,
    named_org_roles,
    org_role_mentions,
    person_statement,
    pet_role_mentions,
    role_mentions,
)
from ingest.pipeline.people_rules import answered_names, corrected_name, owned_pets, pet_candidates, relation_candidates
from ingest.pipeline.rule_forms import (
    CI,
    about,
    clean_object,
    fact_candidate,
    pet_mention,
    preference_candidate,
    role_mention,
    role_node_name,
)
from ingest.pipeline.self_rules import self_fact_candidates
from recall_site.config import recall_setting

# A message with this many words that no typed candidate holds (a clause or more) is kept whole as well, and
# so is one with this many content words unsaid: "My manager Tom wants the quarterly report by Friday" gives
# the relation "Tom is the user's manager", and "wants quarterly report Friday" must not be lost with "my" and "by".
EPISODIC_COPY_MIN_WORDS = 7
EPISODIC_COPY_MIN_CONTENT_WORDS = 2
# Words that say nothing on their own (articles, pronouns, auxiliaries, common prepositions and fillers).
_FUNCTION_WORDS = frozenset(
    "a an the my your his her its our their i i'm i've i'd i'll me we we're you he she it it's they them this that "
    "these those is are was were be been am do does did has have had to of in on at by for with from and or but so "
    "as if about just really very too also then there here now still even again oh ok okay yeah yes no not well "
    "lot much many some any all more most get got gotta think know guess mean way thing things stuff might may "
    "maybe perhaps probably sure yet named called don't doesn't didn't can't cannot won't isn't aren't wasn't never "
    "like likes love loves enjoy enjoys prefer prefers hate hates dislike dislikes name".split())
# Going somewhere or doing something with someone: one word of news beside who they are.
_OUTING_VERBS = frozenset("went go going met visited visiting saw watched brought bringing took hosted hosting "
                          "celebrated celebrating joined joining came coming".split())
# What someone has: one word of news, which a relation about its owner does not say.
_OWNED = re.compile(r"\b(?:has|have|owns|own|bought|drives|drive)\s+"
                    r"(?:a|an|two|three|some|his|her|their|a new|an old)\s+"
                    r"(?:\w+\s+)?(\w+)", CI)
_PREFIX = re.compile(r"^\W*(remember( that)?|fyi|btw|by the way|just so you know|note that|for the record|"
                     r"oh|so|well|also|and|actually|anyway)\b[\s,:]*", CI)
_SENTENCES = re.compile(r"(?<=[.!?;])(?<!\b[DM]r\.)(?<!\bMrs\.)(?<!\bMs\.)(?<!\bProf\.)(?<!\bSt\.)(?<!\bMt\.)"
                        r"(?<!\b[A-Z]\.)\s+")  # not "Mrs. Kim", "St. Luke's", "George R. R. Martin"
_INFERENCE = re.compile(
    r"\b(?:(?:the user|user|you)\s+(?:seem(?:s|ed)?|appear(?:s|ed)?|look(?:s|ed)?|sound(?:s|ed)?|"
    r"might be|may be|must be|was probably|is probably)|i\s+(?:seem(?:ed)?|appear(?:ed)?|look(?:ed)?|sound(?:ed)?))"
    r"\s+(?:to be\s+|really\s+|very\s+|a bit\s+|kind of\s+|"
    r"quite\s+|pretty\s+|a little\s+)*(?!(?:able|going|getting|trying|doing|having|like|right|the|an?)\b)"
    r"(?P<state>[a-z]+)", CI)
_PREFERENCE = re.compile(
    r"\bi(?: really| much| generally| usually| always| strongly| definitely)?(?: |(?=['’]d rather))"
    r"(?P<verb>prefer|would rather|'d rather|’d rather|"
    r"like|love|enjoy|hate|dislike|can't stand|cannot stand|don't like|do not like|don't enjoy)\s+(?P<what>[^.!?;]+)", CI)
# A taste given up: "no more sushi for me", "I quit coffee", "I've stopped eating meat" (a taste of its own, so it
# supersedes "Loves sushi").
_GAVE_UP = re.compile(r"\b(?:no more (?P<what>[a-z][a-z \-]{1,30}?) for me|"
                      r"i(?:'ve| have)? (?:stopped|quit|gave up|given up) (?:eating |drinking |having )?"
                      r"(?!(?:my|the|a|an|his|her|their|our|by|at|to|in|for|on|with|work|working|it|that|this|being)\b)"
                      r"(?P<what2>[a-z][a-z \-]{1,30}?))(?=[.,;!?]|$| any ?more\b| now\b)", CI)
_FAVORITE = re.compile(r"\bmy (?:new |current |latest |all-time |absolute )?fav(?:ou?rite)? (?P<thing>[a-z ]{2,30}?)"
                       r" is (?P<what>[^.!?;]+)|"
                       # "Green is my favorite color now"
                       r"^(?:\W*(?:actually|well|oh|ok|okay|so),? )?(?P<what_b>[\w'’\- ]{2,30}?) is "
                       r"(?:now |actually )?my "
                       r"(?:new |current )?fav(?:ou?rite)? (?P<thing_b>[a-z ]{2,30}?)(?: now)?(?=[.,;!?]|$)", CI)
# A habit given up is a fact about one's health, as sure as anything stated: "I quit smoking two months ago".
_HABITS = re.compile(r"^(?:smoking|cigarettes|vaping|drinking|alcohol|booze|caffeine|weed|"
                     r"gambling|nail biting)$", CI)
_AGO = re.compile(r"\s+(?:(?:about|almost|over|nearly) )?(?:\w+ ){1,2}ago$|\s+(?:last|this) \w+$|\s+in \d{4}$", CI)
# The same thing spelt either way is one attribute ("favourite colour", "favorite color").
_SPELT = {"colour": "color", "flavour": "flavor", "theatre": "theater", "centre": "center"}
_STANDING = re.compile(r"\b(?:please )?(?P<when>always|never|don't|do not) (?P<what>(?:use|reply|answer|write|send|"
                       r"call|book|schedule|remind|suggest|give|keep|include|mention|bring up)\b[^.!?;]*)", CI)
_EVENT_WORDS = re.compile(
    r"\b(lunch|dinner|breakfast|brunch|coffee|meeting|call|appointment|interview|flight|trip|party|wedding|"
    r"conference|visit(?:ing)?|check-?up|drinks|concert|review|standup|1:1|one-on-one|deadline|demo|"
    r"presentation|class|lesson|vacation|holiday|date night|game|match|recital|surgery|exam|workout|"
    r"coming over|flying|seeing|meeting up)\b", CI)
_HEDGE = re.compile(r"\bi (?:think|guess|suppose)\b(?! (?:about|of)\b)|\b(?:maybe|perhaps|probably|possibly|might|"
                    r"not (?:sure|certain))\b", CI)
# What an episodic memory is, checked in this order: a plan, an opinion, a past experience, else a statement.
EPISODIC_KINDS = [
    ("plan", re.compile(r"\b(going to|gonna|plan(?:s|ning)? (?:to|on)|want(?:s)? to|hop(?:e|es|ing) to|will|"
                        r"(?:i|we|you|he|she|they)'ll|next (?:week|weekend|month|year|time)|someday|one day)\b", CI)),
    ("opinion", re.compile(r"\b(think|thinks|believe|believes|feel|feels|love|loves|hate|hates|favou?rite|"
                           r"opinion|prefer|prefers|(?:is|was) (?:a )?(?:mistake|great|amazing|awful|terrible))\b",
                           CI)),
    ("experience", re.compile(r"\b(went|did|was|were|had|visited|saw|met|made|took|got|tried|started|finished|"
                              r"bought|found|learned|wrote|won|lost|joined|left|ran|spent|felt|loved|thought|"
                              r"yesterday|last (?:week|weekend|month|year|night|time)|ago|used to)\b|"
                              r"\b(?:i|we|he|she|they)(?: \w+ly)? \w+ed\b|\b(?:i|we|they)(?:'ve| have) been\b", CI)),
]
_RESCHEDULE = re.compile(r"\b(moved|rescheduled|pushed( back)?|postponed|cancell?ed|shifted|declined|skipped)\b.*"
                         r"\b(meeting|call|commitment|standup|1:1|appointment|session|sync)s?\b", CI)
# "I love that you …", "I love it", "love your turtles": a reaction to what was just said, not a taste.
_VAGUE_OBJECT = re.compile(r"(?:it|them|that|this|these|those|how|what|when|you|your|yours|is|was|the thought)\b",
                           CI)
# "Yeah, I love to.", "I like to hear": the taste is in the sentence before; "I love hiking too" is a taste.
_NO_OBJECT = re.compile(r"to(?: (?:hear|see|know|say|think|do|be))?", CI)
_TOO = re.compile(r",?\s+(?:too|as well|also)$", CI)
PREFERENCE_VERBS = {
    "prefer": "prefers", "would rather": "prefers", "'d rather": "prefers", "’d rather": "prefers", "like": "likes",
    "love": "loves",
    "enjoy": "enjoys", "hate": "dislikes", "dislike": "dislikes", "can't stand": "dislikes",
    "cannot stand": "dislikes", "don't like": "dislikes", "do not like": "dislikes", "don't enjoy": "dislikes",
}


def extract_candidates(message: Message) -> list[Candidate]:
    """Every candidate memory in one user message (at least one: see the module docstring)."""
    text = _PREFIX.sub("", message.content.strip()).strip()
    candidates, said = [], []
    for sentence in filter(None, (s.strip() for s in _SENTENCES.split(text))):
        found = _sentence_candidates(_PREFIX.sub("", sentence), message)
        candidates += found
        if not any(candidate.details.get("inferred") for candidate in found):
            said.append(sentence)  # an inference's sentence must not come back as a plain statement
    candidates += answered_names(text, message)
    candidates += owned_pets(text, message, candidates)
    given = {c.attribute for c in candidates if c.attribute and not c.details.get("takes_back")}
    candidates = [c for c in candidates if not (c.details.get("takes_back") and c.attribute in given)]
    rest = " ".join(said)
    if rest and _needs_episodic(rest, candidates):
        candidates.append(_episodic(rest, message))
    if candidates and (fix := corrected_name(text)):  # "Sorry, I meant Anna, not Anne": persist renames Anne
        wrong, right = fix
        candidates[-1].details["corrects_name"] = [wrong, right]
        candidates[-1].mentions = [m for m in candidates[-1].mentions if m.text != right]  # no second Anna
    return candidates


def _sentence_candidates(sentence: str, message: Message) -> list[Candidate]:
    if match := _INFERENCE.search(sentence):
        return [_inference(sentence, match, message)]
    found = (pet_candidates(sentence, message) + relation_candidates(sentence, message)
             + self_fact_candidates(sentence, message) + _preferences(sentence, message))
    event = _event(sentence, message)
    return _hedged(sentence, found + ([event] if event else []))


def _hedged(text: str, candidates: list[Candidate]) -> list[Candidate]:
    """"I think I'm allergic to cats" is not a stated fact: its candidates stay under the sensitive gate."""
    if _HEDGE.search(text):
        for candidate in candidates:
            candidate.confidence = min(candidate.confidence, recall_setting("memory.hedged_confidence"))
    return candidates


def _needs_episodic(text: str, candidates: list[Candidate]) -> bool:
    """True when no candidate was found, or the typed ones leave a clause or more of the message unsaid."""
    held = {word for c in candidates for word in _words(f"{c.content} {c.details.get('text', '')}")}
    unsaid = [word for word in _words(text) if word not in held]
    return (not candidates or len(unsaid) >= EPISODIC_COPY_MIN_WORDS
            or sum(word not in _FUNCTION_WORDS for word in unsaid) >= EPISODIC_COPY_MIN_CONTENT_WORDS
            or any(char.isdigit() for word in unsaid for char in word)  # "… and he's 4": a number is news
            or any(owned.lower() in unsaid for owned in _OWNED.findall(text))  # "my neighbour Bob has a boat"
            or any(word in _OUTING_VERBS for word in unsaid))  # "Went with my brother Sam and his girlfriend Nina"


def _words(text: str) -> list[str]:
    """The words of `text`, lower case, without a possessive 's ("wife's" is "wife")."""
    return [re.sub(r"['’]s$", "", word) for word in re.findall(r"[\w'’]+", text.lower())]


def _inference(sentence: str, match, message: Message) -> Candidate:
    """Hedged observations are never facts: a preference candidate at inference confidence, for review."""
    return Candidate(
        type="preference", content=about(message, f"Seemed {match.group('state').lower()} (unconfirmed inference)"),
        confidence=recall_setting("memory.inference_confidence"), importance=default_importance("inferred"),
        mentions=[first_person(message)], subject=None, needs_review=True, review_reason="inferred",
        details={"inferred": True, "text": sentence},
    )


def _preferences(sentence: str, message: Message) -> list[Candidate]:
    found = []
    if match := _PREFERENCE.search(sentence):
        verb = PREFERENCE_VERBS[match.group("verb").lower()]
        what = _TOO.sub("", clean_object(match.group("what")))
        if verb == "prefers":  # "I'd rather use Vue than React" → "Prefers Vue over React"
            what = re.sub(r"\bthan\b", "over", re.sub(r"^(?:to )?(?:use|using|go with|going with|stick with|have)\s+",
                                                       "", what, flags=CI), flags=CI)
        if what and not _VAGUE_OBJECT.match(what) and not _NO_OBJECT.fullmatch(what):
            attribute = f"prefers:{_head(what)}" if verb == "prefers" else f"taste:{what.lower()}"[:64]
            found.append(preference_candidate(about(message, f"{verb.capitalize()} {what}"), attribute, message,
                                              mentions=named_mentions(what)))
    if match := _GAVE_UP.search(sentence):
        what = _AGO.sub("", clean_object(match.group("what") or match.group("what2")))
        attribute = f"taste:{what.lower()}"[:64]
        if _HABITS.match(what):
            found.append(fact_candidate(about(message, f"Quit {what}"), f"habit:{what.lower()}",
                                        [first_person(message)], domain="health"))
        elif what and attribute not in {candidate.attribute for candidate in found}:
            found.append(preference_candidate(about(message, f"Gave up {what}"), attribute, message))
    if match := _FAVORITE.search(sentence):
        thing = (match.group("thing") or match.group("thing_b")).strip().lower()
        content = about(message, f"Favourite {thing} is {clean_object(match.group('what') or match.group('what_b'))}",
                        "'s ")
        attribute = "favourite:" + " ".join(_SPELT.get(word, word) for word in thing.split())
        found.append(preference_candidate(content, attribute, message))
    if not message.speaker and (match := _STANDING.search(sentence)):  # said to the assistant, not in a chat
        when = "always" if match.group("when").lower() == "always" else "never"
        found.append(preference_candidate(about(message, f"Wants the assistant to {when} "
                                                f"{clean_object(match.group('what'))}"), "", message))
    return found


def _event(sentence: str, message: Message) -> Candidate | None:
    when = resolve_when(sentence, message.timestamp)
    if not (_EVENT_WORDS.search(sentence) and (when.at or when.phrase)) and not _RESCHEDULE.search(sentence):
        return None
    candidate = Candidate(
        type="event", content=as_said(message, _sentence_content(sentence)),
        confidence=default_confidence("fact"),
        importance=default_importance("event"), mentions=_mentions(sentence, message), valid_from=when.at,
        details={"when": when.phrase} if when.phrase else {},
    )
    if _RESCHEDULE.search(sentence) and when.weekday and when.daypart:
        candidate.details["pattern_key"] = f"avoid:{when.weekday}:{when.daypart}"
    elif when.at and when.at.date() < message.timestamp.date():
        # "Went to a concert last Friday": it happened, an experience told, not an appointment to keep.
        candidate.half_life_days = recall_setting("decay.episodic_half_life_days")
        candidate.details["kind"] = "experience"
    return candidate


def _episodic(text: str, message: Message) -> Candidate:
    when = resolve_when(text, message.timestamp)
    mentions, subject = _mentions(text, message), person_statement(text)
    for mention in mentions:
        if mention.text == subject:  # "Alex thinks…": the memory is about Alex
            mention.kind, mention.role = "person", "subject"
    kind = next((kind for kind, pattern in EPISODIC_KINDS if pattern.search(text)), "statement")
    candidate = Candidate(
        type="event", content=as_said(message, _sentence_content(text)),
        confidence=default_confidence("fact"),
        importance=default_importance("episodic"), mentions=mentions, valid_from=when.at or message.timestamp,
        half_life_days=recall_setting("decay.episodic_half_life_days"), details={"episodic": True, "kind": kind},
    )
    _hedged(text, [candidate])
    return candidate


def _mentions(text: str, message: Message) -> list[Mention]:
    """Names in the text, and role phrases ("my boss"): the user's, or a speaker's as "Caroline's boss" (a
    speaker's "my boss" is not the user's). Each may become an unnamed node of its own (resolve_refs)."""
    found = named_mentions(text)
    for mention in role_mentions(text):
        found.append(role_mention(message, mention.text.removeprefix("my ")))
    for pet in pet_role_mentions(text):
        found.append(pet_mention(message, pet))
    named = {word for _, word in named_org_roles(text)}  # "The Wolves are my team": the team has a name
    for org in org_role_mentions(text):
        if org.word in named:
            continue
        name, bare = role_node_name(message, org.words), role_node_name(message, org.word)
        found.append(Mention(name, kind="org", owner=first_person(message, "subject"),
                             role_predicate=ORG_ROLE_WORDS[org.word], owner_is_subject=True,
                             node_at_once=org.at_once, node_aliases=(bare,) if bare != name else ()))
    return found


def _head(what: str) -> str:
    """The thing a preference is about: "morning meetings over afternoon ones" → "meetings"."""
    core = re.split(r"\b(over|to|rather than|instead of|than|when|if|because|but|at|in|on|for|with)\b", what, flags=CI)[0]
    words = re.findall(r"[a-z]+", core.lower()) or re.findall(r"[a-z]+", what.lower())
    return words[-1] if words else what.lower()


def _sentence_content(sentence: str) -> str:
    sentence = re.sub(r"\s+", " ", sentence).strip()
    return sentence[:1].upper() + sentence[1:]
