"""Query-domain gating: which domains a query may read and the confidence it needs.

The query is classified as professional, personal, health or relationship by
keyword rules first and, when no rule fires, by the nearest centroid of
labelled example queries (query_domains.yaml) embedded once per process; a
centroid that beats `personal` by less than `gating.centroid_min_margin`
leaves the query personal, the broadest narrowing.
The domain narrows the memory domains searched (README, "Search"); explicit filters and
the escape hatch ("including personal stuff", include_all_domains) override it.
Sensitive memories always need `gating.sensitive_min_confidence`, whatever
the filters say.
"""
import functools
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from entities.vocabulary import CLOSE_FAMILY, PARTNERS, alternatives
from memories.domain_classifier import example_centroids, keyword_counts
from memories.models import ALLOWED_DOMAINS, Domain
from recall_site.config import recall_setting

ALL_DOMAINS = [choice.value for choice in Domain]
FALLBACK_DOMAIN = "personal"
EXAMPLES_PATH = Path(__file__).with_name("query_domains.yaml")

# Word stems that settle the domain on their own. The first domain with the most hits wins.
KEYWORDS = {
    "health": r"allerg|medic|doctor|dentist|symptom|diagnos|prescri|pill|vaccin|therap|physio|injur|"
              r"pain|sick|illness|health|hospital|asthma|migraine|blood pressure|insomnia|intoleran|workout|gym\b|"
              r"dose|dosage|meds\b|weigh|kg\b|lbs\b|cholesterol|pregnan|surgery|flu\b|covid|clinic|headache|"
              r"inhaler|eczema|arthritis|celiac|diabet|depress|anxiety|adhd|check-?up|smok|vap(?:e|ing)\b|cigarette|"
              r"alcohol|sober",
    # The family words the write-time tagger files under relationship (ingest/pipeline/tag_domain.py), whole
    # words ("son", not "song"): "when is my daughter's birthday" must read where "my daughter Lily…" went.
    "relationship": alternatives(PARTNERS) + r"|spouse|dating|seeing (?:anyone|someone|somebody)|single\b|marri|"
                    r"wedding|divorce|"
                    r"break ?up|anniversary|relationship|fianc|romantic|"
                    rf"(?:{alternatives(CLOSE_FAMILY)}|parent|kid|child|cousin|aunt|uncle|niece|nephew)s?\b|"
                    r"children\b|family\b|bab(?:y|ies)\b|in-laws\b|"
                    r"grand(?:ma|pa|mother|father|son|daughter|parent|kid|child)",
    "professional": r"proposal|client|project|deadline|meeting agenda|manager|colleague|presentation|"
                    r"quarterly|roadmap|report|work(?:s|ing)?\b|office|job|career|interview|contract|"
                    r"stakeholder|team|boss|salary|promotion|okr|kpi|sprint|customer",
    # Code and tools, a job's or a hobby's, and study, a student's work: the personal gate reads both ("which
    # python version are we on" is no relationship question, whatever its "we" sounds like; the tagger files "I
    # finished my thesis" as personal). Last, so a work word settles a tie.
    "personal": r"python|javascript|typescript|java\b|rust\b|golang|sql|django|flask|fastapi|react|node\b|"
                r"docker|kubernetes|api\b|apis\b|endpoint|database|framework|library|version|codebase|code\b|"
                r"coding|bug|debug|deploy|server|script|function|query|queries|schema|cache|latency|crash\w*|"
                r"errors?\b|exceptions?\b|stack ?traces?|"
                r"thesis|dissertation|homework|coursework|semester|syllabus|essay|midterms?|lectures?|professor|"
                r"major\b|degree\b|studying|courses?\b",
}
_KEYWORD_PATTERNS = {domain: re.compile(rf"\b(?:{stems})", re.IGNORECASE) for domain, stems in KEYWORDS.items()}
# What to eat or drink is a health matter as well: an allergy, a diet or a condition told months ago must reach
# "suggest a dinner recipe" or "what milk do I use" (ours; a work question stays narrow).
FOOD = re.compile(r"\b(?:recipes?|cook\w*|dinner|lunch|breakfast|brunch|meals?|snacks?|food|eat|eating|restaurants?|"
                  r"dish(?:es)?|menu|bake|baking|dessert|groceries|grocery|takeout|order in|drinks?|drinking|milk|"
                  r"smoothies?)\b", re.IGNORECASE)
# Moving the body is a health matter as well: an injury or a condition must reach "any tips for my run?".
EXERCISE = re.compile(r"\b(?:run|runs|running|jog\w*|workouts?|work out|gyms?|exercis\w*|hik(?:e|es|ed|ing)|"
                      r"ski(?:ing)?|swim\w*|cycling|bike ride|yoga|lifting|weights|marathon|training|stretch\w*|sports?)\b",
                      re.IGNORECASE)
# What such a question needs to know whatever its own words (english stems, as the full-text index holds them): a
# diet, an allergy or an intolerance for food; an injury or a condition for exercise.
FOOD_NEEDS = ("allerg", "allergi", "intoler", "vegetarian", "vegan", "diet", "pescatarian", "kosher", "halal",
              "celiac")
EXERCISE_NEEDS = ("injur", "injuri", "hurt", "pain", "sprain", "asthma", "surgeri", "arthriti", "physio")
# A question about one's own work: its answer is what the user does and where, whatever its words ("what do I do
# for work" → "Manages a small bakery in Austin").
_OWN_WORK = re.compile(r"\b(?:my (?:job|occupation|profession|career|work)\b|(?:do|did) i do (?:for (?:work|a "
                       r"living)|at work)|where do i work|what (?:is|was) my (?:job|role|title)|what do i do\b)",
                       re.IGNORECASE)
WORK_ATTRIBUTES = ("occupation", "employer")
# A question whose answer is someone: "who inspired me", "whose idea was the trip".
_ASKS_WHO = re.compile(r"\bwho(?:m|se|'s)?\b", re.IGNORECASE)
ESCAPE_HATCH = re.compile(
    r"\binclud(?:e|ing)\s+(?:the\s+|my\s+|all\s+(?:the\s+)?)?(?:personal|private|everything|all|health|"
    r"relationship)\b|\b(?:all|every|across)\s+(?:my\s+)?domains?\b|\bpersonal (?:stuff|things) too\b|"
    r"\bcross[- ]domain\b",
    re.IGNORECASE,
)


# "Which library did you recommend?", "what plan did we settle on?": a question about what the assistant said.
_ASKS_ASSISTANT = re.compile(
    r"\b(?:did|have|had|would) you\b|\byou (?:recommended|suggested|proposed|said|mentioned|told|gave|computed|"
    r"calculated|showed|wrote|explained|recommend|suggest)\b|\byour (?:recommendation|suggestion|advice|plan|"
    r"answer|estimate)\b|\b(?:did|have) we (?:settle|decide|agree|choose|pick|plan)\b|"
    r"\bwe (?:settled|decided|agreed|chose|picked|planned)\b", re.IGNORECASE)


# "Which library did you recommend?", "the plan we settled on": what the assistant already said is the answer.
_ASKED_BEFORE = re.compile(
    r"\b(?:did|had) you (?:\w+ )?(?:recommend|suggest|propose|say|mention|tell|give|compute|calculate|show|write|"
    r"explain|advise|share)|\byou (?:recommended|suggested|proposed|said|mentioned|told|gave|computed|calculated|"
    r"showed|wrote|explained|advised|shared)\b|\byour (?:recommendation|suggestion|advice|plan|answer|estimate)\b|"
    r"\b(?:did|have) we (?:settle|decide|agree|choose|pick|plan)|\bwe (?:settled|decided|agreed|chose|picked|"
    r"planned)\b", re.IGNORECASE)


def asks_what_was_said_before(query: str) -> bool:
    """Whether the question asks what the assistant already said ("which library did you recommend?")."""
    return bool(_ASKED_BEFORE.search(query))


def asks_what_the_assistant_said(query: str) -> bool:
    """Whether the question asks after the assistant's words: then they weigh as much as the user's."""
    return bool(_ASKS_ASSISTANT.search(query))


@dataclass(frozen=True)
class Gate:
    """What a query may read: its domain, the memory domains allowed, and the confidence floors."""

    domain: str
    method: str  # keywords | centroid | fallback
    domains: list[str]
    min_confidence: float
    sensitive_min_confidence: float
    all_domains: bool


def classify_query(query: str, query_vector=None) -> tuple[str, str]:
    """(domain, method). Keyword rules, then nearest centroid when a query vector is given."""
    counts = keyword_counts(_KEYWORD_PATTERNS, query)
    best = max(counts, key=counts.get)
    if counts[best]:
        return best, "keywords"
    if query_vector is not None:
        labels, centroids = query_domain_centroids()
        similarity = dict(zip(labels, centroids @ np.asarray(query_vector, dtype=np.float32)))
        best = max(similarity, key=similarity.get)
        if similarity[best] - similarity[FALLBACK_DOMAIN] >= recall_setting("gating.centroid_min_margin"):
            return best, "centroid"
        return FALLBACK_DOMAIN, "centroid"
    return FALLBACK_DOMAIN, "fallback"


@functools.cache
def query_domain_centroids() -> tuple[list[str], np.ndarray]:
    """(labels, unit centroids) of the example queries per domain, embedded once per process."""
    return example_centroids(EXAMPLES_PATH)


def wants_all_domains(query: str) -> bool:
    """The escape hatch in the query's own words ("… including personal stuff")."""
    return bool(ESCAPE_HATCH.search(query))


def implied_needs(query: str, domain: str) -> tuple[str, ...]:
    """The stems of what a question about food or exercise needs to know (`FOOD_NEEDS`, `EXERCISE_NEEDS`); none
    for a work question."""
    if domain == Domain.PROFESSIONAL:
        return ()
    return (FOOD_NEEDS if FOOD.search(query) else ()) + (EXERCISE_NEEDS if EXERCISE.search(query) else ())


def implied_attributes(query: str) -> tuple[str, ...]:
    """The attributes of the facts a question needs whatever their words: the user's job and employer for a
    question about their work."""
    return WORK_ATTRIBUTES if _OWN_WORK.search(query) else ()


def query_gate(query: str, *, query_vector=None, domains=None, min_confidence=None,
               include_all_domains: bool = False, names_people: bool = False) -> Gate:
    """The query's gate. `names_people`: the query names people of the user's graph; a personal question
    about them ("when is Lily's birthday"), or one asking who ("who inspired me"), also reads the relationship
    domain, where what the user said of their family and partner is filed (a work question stays narrow, as
    the seed asks). A question about the family's work ("where does my dad work") also reads the professional
    domain, where jobs are filed. A question about food, drink or exercise that is not about work also reads
    health (`implied_needs`)."""
    domain, method = classify_query(query, query_vector)
    all_domains = include_all_domains or wants_all_domains(query)
    if domains:
        allowed = [d for d in ALL_DOMAINS if d in set(domains)]
    elif all_domains:
        allowed = list(ALL_DOMAINS)
    else:
        allowed = [str(d) for d in ALLOWED_DOMAINS[domain]]
        if (names_people or _ASKS_WHO.search(query)) and domain == FALLBACK_DOMAIN:
            allowed = [d for d in ALL_DOMAINS if d in {*allowed, Domain.RELATIONSHIP.value}]
        elif domain == Domain.RELATIONSHIP and _KEYWORD_PATTERNS[Domain.PROFESSIONAL].search(query):
            allowed = [d for d in ALL_DOMAINS if d in {*allowed, Domain.PROFESSIONAL.value}]  # "where does my dad work"
        elif domain == Domain.PROFESSIONAL and method == "centroid":
            # No work word, only the words' nearness to the work examples ("what is my remodel budget", "what is
            # Nora training for"): it also reads the personal domain, where everyday plans and numbers are filed.
            allowed = [d for d in ALL_DOMAINS if d in {*allowed, FALLBACK_DOMAIN}]
        elif domain == Domain.HEALTH and (method == "centroid" or EXERCISE.search(query)):
            # Only the words' nearness says health ("what kind of dog is Rex", "what is my diet"), or the question
            # is about exercise ("which gym do I go to"), which everyday talk files as personal: it also reads the
            # personal domain, which holds no health matter, rather than health alone.
            allowed = [d for d in ALL_DOMAINS if d in {*allowed, FALLBACK_DOMAIN}]
        if asks_what_was_said_before(query) and not (domain == Domain.PROFESSIONAL and method == "keywords"):
            # "what cake did you suggest": the reply was filed where the question it answered went ("my husband is
            # gluten free…", relationship; "I work night shifts… can't sleep", professional), which the words of
            # this question do not tell. Any domain but a work question's narrow one (by its words: "which
            # brokerage did you recommend" is only nearest the work examples); health stays behind its gate.
            allowed = [d for d in ALL_DOMAINS if d in {*allowed, *ALLOWED_DOMAINS[FALLBACK_DOMAIN],
                                                         Domain.RELATIONSHIP.value}]
        if implied_needs(query, domain):
            allowed = [d for d in ALL_DOMAINS if d in {*allowed, Domain.HEALTH.value}]
    if min_confidence is None:
        professional = domain == "professional" and not all_domains
        min_confidence = recall_setting(
            "gating.professional_min_confidence" if professional else "gating.default_min_confidence")
    return Gate(
        domain=domain,
        method=method,
        domains=allowed,
        min_confidence=float(min_confidence),
        sensitive_min_confidence=float(recall_setting("gating.sensitive_min_confidence")),
        all_domains=all_domains or bool(domains),
    )
