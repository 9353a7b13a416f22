"""Stage 3, tag_domain: label each candidate professional / personal / health / relationship / scheduling.

Keyword rules decide whenever any domain's words appear (most hits wins; ties
go to the more specific domain, in `PRIORITY` order). Only text with no keyword
at all goes to the nearest-centroid classifier over sentence embeddings of the
labelled examples in `domain_examples.yaml` (centroids embedded once per
process); those candidates are embedded in one model call per batch, before any
database transaction, which keeps the model off the hot path for most messages.
A single text (one message per call) goes through `embed_query`: the same unit
vector without encode()'s batching overhead.
Nothing is cached across calls: a process must not keep what a user said after
they ask Recall to forget it.
An extractor's domain hint (an employer fact is professional) wins. `sensitive`
is set for health and relationship memories and for emotional content.
"""
import functools
import logging
import re
from pathlib import Path

import numpy as np

from entities.vocabulary import CLOSE_FAMILY, PARTNERS, alternatives
from ingest.pipeline.assistant_turns import ASSISTANT
from ingest.pipeline.base import Candidate, Stage, WorkItem
from ingest.pipeline.names_in_text import ROLE_WORDS
from memories.domain_classifier import example_centroids, keyword_counts
from memories.embedding import embed_query, embed_texts

logger = logging.getLogger(__name__)
EXAMPLES_PATH = Path(__file__).with_name("domain_examples.yaml")
FALLBACK_DOMAIN = "personal"
# Tie-break between domains with equally many keyword hits: the more specific first.
PRIORITY = ("health", "relationship", "professional", "scheduling", "personal")
CI = re.IGNORECASE
KEYWORDS = {
    "health": re.compile(
        r"\b(allerg\w*|doctor|dentist|medic\w*|pills?|therap\w*|diagnos\w*|asthma|diabet\w*|migraines?|"
        r"blood|surgery|hospital|sick|ill|flu|covid|pain|injur\w*|physio\w*|prescription|symptoms?|insomnia|"
        r"pregnan\w*|check-?up|inhaler|clinic|headaches?|vaccin\w*|mental health|depress\w*|anxiety|"
        r"adhd|eczema|arthritis|celiac|lactose intolerant|recover\w*|smok\w*|vap(?:e|ing)|cigarettes?|alcohol|sober\w*|"
        # A dose or the body's measures: "I take 20mg of lisinopril every morning", "I'm down to 78 kg now".
        r"\d+(?:\.\d+)? ?(?:mg|mcg)|doses?|dosage|meds|weigh\w*|kg|lbs|cholesterol)\b", CI),
    "relationship": re.compile(
        rf"\b((?:{alternatives(PARTNERS, CLOSE_FAMILY)})s?|married|marry|dating|divorc\w*|break ?up|broke up|"
        r"fianc\w*|anniversary|relationship|parents?|"
        r"family|kids|bab(?:y|ies)|grand\w+|in-laws|cousin|aunt|uncle|proposed|engaged|best friend)\b", CI),
    "professional": re.compile(
        r"\b(work\w*|job|manager|boss|colleague|co-?worker|client|project|proposal|deadline|promot\w*|"
        r"salary|raise|office|company|team|career|quarterly|report|presentation|standup|sprint|employer|"
        r"hired|engineer\w*|startup|contract|investor|roadmap|okrs?|1:1|one-on-one|hr|interview|"
        r"conference|business|customer|stakeholder|board|"
        # Building software is work whoever it is for: the project talk assistants hear most.
        r"code|coding|library|libraries|api|apis|repo|repository|deploy\w*|database|server|backend|frontend|"
        r"bug|debug\w*|feature|release|framework|endpoint|auth|oauth|login|ci|pipeline|migration|refactor\w*|"
        r"python|javascript|typescript|sql|docker|kubernetes|flask|django|react)\b", CI),
    "scheduling": re.compile(
        r"\b(meeting|meetings|calendar|schedul\w*|reschedul\w*|appointment|lunch|dinner|breakfast|brunch|"
        r"tomorrow|tonight|today|next week|monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
        r"\d{1,2}(:\d{2})?\s*(am|pm)|booked?|reservation|flight|mornings?|afternoons?|evenings?|"
        r"postpon\w*|cancel\w*|remind\w*|to-?do|don't forget)\b", CI),
    "personal": re.compile(
        r"\b(hobby|hobbies|likes?|loves?|enjoys?|favou?rite|music|band|book|books|movies?|films?|hiking|"
        r"cooking|food|coffee|tea|dogs?|cats?|pets?|pupp(?:y|ies)|kittens?|vegetarian|vegan|diet|lives? in|"
        r"moved|apartment|flat|house|garden|guitar|piano|travel\w*|vacation|holiday|bike|running|football|"
        r"games?|rent|mortgage|lease|landlord|birthdays?|gifts?|presents?)\b", CI),
}
EMOTIONAL = re.compile(
    r"\b(stress\w*|anxious|worried|worry|sad|lonely|upset|depress\w*|overwhelm\w*|burn(ed|t)? ?out|"
    r"panic|grief|griev\w*|crying|cried|heartbroken|afraid|scared|angry|frustrated|exhausted|"
    r"unconfirmed inference)\b", CI)
SENSITIVE_DOMAINS = {"health", "relationship"}
# Family or friends as company on an outing ("lunch with my brother at a Thai place", "went hiking with my husband",
# "my sister and I saw a play", "me and my best friend are going to Japan") or as who someone named is ("my son Leo is
# learning the piano"). What was done is the matter,
# not the relationship: filed by the activity, and personal where it would be scheduling, so that the personal and
# the relationship questions both read it (search/retrieval/gating).
_FAMILY = (rf"(?:(?:{alternatives(PARTNERS, CLOSE_FAMILY)})s?|parents|kids|children|family|cousins?|grand\w+|aunts?|"
           r"uncles?|nieces?|nephews?|(?:\w+-)?in-laws?|(?:best )?friends?)")
_COMPANY = re.compile(rf"\b(?:with|and|took|brought) (?:my|our|the|his|her|their) (?:\w+ )?{_FAMILY}(?:'s)?"
                      rf"(?: and (?:my |our |the )?"
                      rf"{_FAMILY})?\b|\b(?:my|our) {_FAMILY} and (?:i|me)\b|"
                      # "my son Leo is learning the piano", "my two sons Jake and Sam play soccer"
                      rf"\b(?:my|our) (?:two |three |four |\d )?{_FAMILY},? (?=(?-i:[A-Z]))", CI)
_SAID_BY = re.compile(r"^Assistant: ")  # how the assistant's words are kept (assistant_turns.py)
# Who someone named is to the user, said on the way to what is said of them: left out of what the centroids read.
_NAMED_ROLE = re.compile(r"\b(?i:my|our) (?i:" + "|".join(sorted(map(re.escape, ROLE_WORDS), key=len, reverse=True))
                         + r") (?=[A-Z])")


@functools.cache
def domain_centroids() -> tuple[list[str], np.ndarray]:
    """(domains, unit centroids) of the labelled example memories, embedded once per process."""
    return example_centroids(EXAMPLES_PATH)


def keyword_hits(text: str) -> dict[str, int]:
    return keyword_counts(KEYWORDS, text)


def classify_domains(texts: list[str]) -> list[str]:
    """One domain per text: keyword hits decide; text without any goes to the embedding centroids."""
    labels: list[str | None] = []
    model_texts = [_SAID_BY.sub("", text) for text in texts]  # what was said, not who said it
    in_company = set()
    for index, text in enumerate(texts):
        hits = {domain: n for domain, n in keyword_hits(text).items() if n}
        if "relationship" in hits and not EMOTIONAL.search(text) and _COMPANY.search(text):
            hits, model_texts[index] = _company_hits(model_texts[index], hits)
            in_company.add(index)
        elif not hits and not EMOTIONAL.search(text):  # "my neighbour Bob has a boat" is about Bob's boat
            model_texts[index] = _NAMED_ROLE.sub("", model_texts[index])
        label = max(hits, key=lambda d: (hits[d], -PRIORITY.index(d))) if hits else None
        # A time is not what a health matter is about: "my dentist appointment is on Dec 12 at 3pm" is health,
        # which a health question reads alone (search/retrieval/gating.py), however many time words it has.
        labels.append("health" if label == "scheduling" and "health" in hits else label)
    pending = [index for index, label in enumerate(labels) if label is None]
    if pending:
        for index, label in zip(pending, _nearest_centroids([model_texts[i] for i in pending])):
            labels[index] = "personal" if label == "scheduling" and index in in_company else label
    return labels


def _company_hits(text: str, hits: dict[str, int]) -> tuple[dict[str, int], str]:
    """(hits, text for the centroids) of a text naming family: without the family words that are only the
    company of what the user did (an outing's time filed personal), unless the family is still the matter."""
    alone = _COMPANY.sub(" ", text)
    left = {domain: n for domain, n in keyword_hits(alone).items() if n}
    if "relationship" in left:
        return hits, text
    return {("personal" if domain == "scheduling" else domain): n for domain, n in left.items()}, alone


def _nearest_centroids(texts: list[str]) -> list[str]:
    """The model's label per text (each distinct text embedded once per call)."""
    distinct = list(dict.fromkeys(texts))
    labels = _model_classify(distinct)
    if labels is None:
        return [FALLBACK_DOMAIN] * len(texts)
    by_text = dict(zip(distinct, labels))
    return [by_text[text] for text in texts]


def _model_classify(texts: list[str]) -> list[str] | None:
    """Fail-open: if the model cannot run (None), the memory is still written, tagged `FALLBACK_DOMAIN`."""
    try:
        domains, centroids = domain_centroids()
        vectors = [embed_query(texts[0])] if len(texts) == 1 else embed_texts(texts)
        similarities = np.array(vectors) @ centroids.T
    except Exception:  # noqa: BLE001 - a model failure must not lose what the user said
        logger.exception("domain model failed for %d texts; tagging them %s", len(texts), FALLBACK_DOMAIN)
        return None
    return [domains[int(np.argmax(row))] for row in similarities]


def is_sensitive(domain: str, text: str) -> bool:
    return domain in SENSITIVE_DOMAINS or bool(EMOTIONAL.search(text))


def tag_candidates(candidates: list[Candidate]) -> None:
    untagged = [c for c in candidates if not c.domain]
    for candidate, domain in zip(untagged, classify_domains([c.content for c in untagged])):
        candidate.domain = domain
    for candidate in candidates:
        candidate.sensitive = candidate.sensitive or is_sensitive(candidate.domain, candidate.content)


class TagDomain(Stage):
    name = "tag_domain"
    in_transaction = False

    def run(self, item: WorkItem, context) -> None:
        tag_candidates(item.candidates)

    def run_batch(self, items: list[WorkItem], context) -> None:
        kept = [item for item in items if item.rejection is None]
        hinted = {id(c) for item in kept for c in item.candidates if c.domain}
        tag_candidates([c for item in kept for c in item.candidates])
        _replies_filed_with_their_question(kept, hinted)


def _replies_filed_with_their_question(items: list[WorkItem], hinted: set[int]) -> None:
    """The assistant's reply is filed where the user's message it answers went ("My daughter Zoe turns 7, any party
    ideas?", personal: "How about a backyard science party? Kids love…" would be relationship by its words), so the
    question's gate that finds the one finds the other ("what party ideas did you give")."""
    asked = None  # the domain of the user's last kept message in the batch
    for item in items:
        if item.message.role != ASSISTANT:
            said = [c for c in item.candidates if c.type == "event"] or item.candidates  # the message as said first
            asked = said[0].domain if said else asked
            continue
        for candidate in item.candidates:
            if asked and id(candidate) not in hinted and candidate.domain != asked:
                candidate.domain = asked
                candidate.sensitive = candidate.sensitive or is_sensitive(asked, candidate.content)
