"""What the assistant said, kept in its place: the plan it proposed, the library it recommended, the figure it
computed — never a fact about the user.

The seed's auto-memory is reflection after the response: the exchange is the unit, not the user's line
alone. An assistant message is scored for substance (`assistant_relevance`): a proposal or recommendation
("I'd suggest…", "you could use…", "here's a plan"), a decision taken with the user ("let's go with…"), a
computation or figures, code, a list of steps or options, advice as an instruction ("try…", "remember to…"),
something done for the user (a reminder set, a table booked) or a day and an hour. Chit-chat, apologies, offers
of more help and questions handed back are filtered as the user's small talk is. What is kept becomes `event` memories
(`assistant_candidates`): its first MAX_PASSAGES passages of substance, each at most PASSAGE_CHARS (so it is
embedded whole), each saying "Assistant: …", with `details.said_by` "assistant" and
`details.in_reply_to` the user turn it answered (`Message.in_reply_to`). They name no entities and have no
subject: the user's graph and facts stand on what people said. They never enter the startup digest
(hydration.py) and are not reinforced by, nor reinforce, what the user said (reconcile.py).
"""
import re

from ingest.pipeline.base import Candidate, Message, default_confidence, default_importance
from memories.models import SAID_BY_ASSISTANT
from recall_site.config import recall_setting

ASSISTANT = "assistant"  # the message role
PASSAGE_CHARS = 800  # about what all-MiniLM-L6-v2 reads of one text (256 word pieces)
MAX_PASSAGES = 2  # of one message, the first ones of substance: the rest of a long answer is left out
MIN_WORDS = 8
CI = re.IGNORECASE | re.MULTILINE

# What makes an assistant message worth keeping, each cue counted once.
SUBSTANCE = [
    re.compile(r"\b(?:i(?:'d| would)? (?:recommend|suggest|propose|advise)|my (?:recommendation|suggestion)|"
               r"you (?:could|should|might|can|may want to) (?:use|try|consider|start|switch|add|set|go|keep|"
               r"split|move|replace|run|create|build|write|schedule|aim|store|index|cache|enable|return|call|pass|"
               r"wrap|put|define|configure|install|deploy|host|fetch|query|send|save|load|limit|handle|check|log|"
               r"test)|consider (?:using|adding|switching)|"
               r"(?:a|the|your) (?:good|great|better|best|solid|safer|safest|simpler|top) (?:option|choice|approach|"
               r"fit|bet|pick)|i(?:'d| would) (?:go with|pick|choose|opt for)|"
               r"here(?:'s| is) (?:a|an|the|your|my) (?:[\w-]+ ){0,2}(?:plan|schedule|breakdown|outline|draft|"
               r"summary|approach|list|budget|itinerary|recipe|script|example|version|template|routine)|"
               # Ideas offered as a question or a guess at a taste: "How about a garden kneeling pad?", "she'd
               # love a cooking class", "a few ideas:".
               r"(?:how|what) about (?:a|an|the|some|trying|getting|going|booking|making)|"
               r"(?:she|he|they|you)(?:'d| would) (?:probably |likely |really )?(?:love|like|enjoy|appreciate)|"
               r"would make (?:a|an) (?:great|good|nice|perfect|lovely|thoughtful) (?:gift|present|choice|option)|"
               r"(?:some|a few|a couple of) (?:ideas|options|suggestions)|"
               # "Square Online is the easiest", "Toast is another option".
               r"(?:is|are) (?:probably |usually )?(?:the )?(?:easiest|simplest|cheapest|best|fastest|safest|most "
               r"popular)|(?:is|are) (?:another|a good|a great|a solid|an?) (?:option|alternative|choice|pick))\b", CI),
    re.compile(r"\b(?:let's (?:go with|use|settle on|stick with|do|plan|start|schedule|aim for)|we(?:'ll| will) "
               r"(?:use|go with|start|do|plan)|(?:we|you) (?:decided|agreed|settled) (?:on|to)|"
               r"(?:the|your) (?:plan|decision|goal|deadline|budget|target) (?:is|will be))\b", CI),
    re.compile(r"\d[\d,.]*\s*(?:%|percent|ms|s\b|seconds|minutes|hours|days|weeks|months|years|kb|mb|gb|tb|"
               r"users|requests|items|pages|words|calories|kcal|km|miles|kg|lbs?|\$|€|£|usd|eur)|"
               r"[$€£]\s?\d|\b(?:total|comes to|works out to|sum|average|per (?:day|week|month|hour))\b|"
               r"\d\s*[-+*/×=]\s*\d|\b(?:once|twice|(?:\w+|\d+) times) (?:a|per|each|every) (?:day|week|month|year)\b",
               CI),
    re.compile(r"```|^(?: {4}|\t)\S|\b(?:def|class|function|import|return|const|SELECT|npm|pip|git)\b [\w(]|"
               r"\b[a-z]+_[a-z_]+=|\b[a-z_]+\.[a-z_]+\("),  # code inline: allow_origins=[…], os.getenv(…)
    re.compile(r"^\s*(?:[-*•]|\d+[.)]|step \d+)\s+\S", CI),
    # Advice given as an instruction: "For your knee, try low-impact cardio", "Remember to bring your passport".
    re.compile(r"(?:^|[.!?:]\s+|,\s+)(?:try|use|avoid|book|bring|pack|skip|consider|remember to|make sure|add|set|"
               r"install|enable|disable|configure|increase|decrease|wrap|replace|upgrade|pin|"
               r"don't forget|do not forget|start with|stick (?:to|with)|aim for|switch to|go for|go with|opt for|"
               r"open|get|download|sign up|buy|order|apply|look into|check out|keep|store|save|track|parse|split|"
               r"cache|index|schedule|plant|water|prune)\b",
               CI),
    # Something done for the user, or a day and an hour: "I've set a reminder for your dentist appointment on
    # Thursday at 2pm", "your table is booked for 7".
    re.compile(r"\bi(?:'ve| have)? (?:set|added|booked|scheduled|created|saved|reserved|cancell?ed|moved|updated|"
               r"sent|ordered)\b|\b(?:is|are|been) (?:set|booked|scheduled|confirmed|reserved)\b|"
               r"\b(?:on|this|next) (?:mon|tues|wednes|thurs|fri|satur|sun)day\b|"
               r"\bat \d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)", CI),
    re.compile(r"\b(?:step|phase|sprint|milestone|week|day) \d+\b|\b(?:first|then|next|finally),? ", CI),
]
SUBSTANCE_WEIGHT = 0.25
BASE_SCORE = 0.35
# An assistant line that only apologises, thanks, offers more help, cheers or hands a question back.
_PLEASANTRY = re.compile(
    r"^\W*(?:(?:i'?m )?sorry|i apologi[sz]e|my apologies|thanks?(?: you)?|you'?re welcome|no problem|"
    r"glad (?:i|to|that)|happy to help|great (?:question|idea|choice|job)|good (?:question|luck|idea)|"
    r"absolutely|of course|sure(?: thing)?|certainly|let me know|feel free|is there anything|"
    r"do you (?:want|need|have)|would you like|what (?:else|do you think)|hope (?:this|that) helps|"
    r"that'?s (?:great|awesome|wonderful|a great)|congrat\w*|you'?ve got this|good (?:morning|night))\b", CI)
_PASSAGE_BREAK = re.compile(r"\n\s*\n")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def assistant_relevance(text: str) -> tuple[float, str]:
    """(score in 0..1, junk reason or "") of an assistant message, on the same scale as the user's."""
    text = text.strip()
    if len(text.split()) < MIN_WORDS:
        return 0.0, "too_short"
    substantive = sum(bool(pattern.search(text)) for pattern in SUBSTANCE)
    if not substantive:
        asks = all(sentence.rstrip().endswith("?") for sentence in _SENTENCE_END.split(text) if sentence.strip())
        return BASE_SCORE, "question" if asks else "chit_chat"
    return round(min(BASE_SCORE + SUBSTANCE_WEIGHT * substantive, 1.0), 3), ""


def assistant_candidates(message: Message) -> list[Candidate]:
    """The message's passages of substance as `event` candidates (see the module docstring)."""
    found = []
    substantive = [passage for passage in passages(message.content) if _has_substance(passage)]
    for passage in substantive[:MAX_PASSAGES]:
        found.append(Candidate(
            type="event", content=f"Assistant: {passage}", confidence=default_confidence("fact"),
            importance=default_importance("episodic"), valid_from=message.timestamp,
            half_life_days=recall_setting("decay.episodic_half_life_days"),
            details={"said_by": SAID_BY_ASSISTANT, "in_reply_to": message.in_reply_to, "episodic": True,
                     "kind": "assistant"},
        ))
    return found


def passages(text: str) -> list[str]:
    """The text cut at blank lines (a paragraph, a list, a code block), paragraphs that are only pleasantries left
    out, joined again into passages of at most PASSAGE_CHARS (a longer paragraph cut at sentence ends)."""
    pieces = []
    for block in filter(None, (block.strip() for block in _PASSAGE_BREAK.split(text))):
        if not _only_pleasantries(block):
            pieces += [block] if len(block) <= PASSAGE_CHARS else _sentences_within(block)
    return _packed(pieces, "\n\n")


def _sentences_within(block: str) -> list[str]:
    return [piece[:PASSAGE_CHARS] for piece in _packed(_SENTENCE_END.split(block), " ")]


def _packed(pieces: list[str], joiner: str) -> list[str]:
    """Consecutive pieces joined into runs of at most PASSAGE_CHARS (a longer piece stays a run of its own)."""
    runs, current = [], ""
    for piece in pieces:
        if current and len(current) + len(joiner) + len(piece) > PASSAGE_CHARS:
            runs.append(current)
            current = ""
        current = f"{current}{joiner}{piece}" if current else piece
    if current:
        runs.append(current)
    return runs


def _has_substance(passage: str) -> bool:
    return any(pattern.search(passage) for pattern in SUBSTANCE)


def _only_pleasantries(passage: str) -> bool:
    sentences = [s for s in _SENTENCE_END.split(passage.strip()) if s.strip()]
    return all(_PLEASANTRY.match(s) or s.rstrip().endswith("?") for s in sentences) and not any(
        pattern.search(passage) for pattern in SUBSTANCE)
