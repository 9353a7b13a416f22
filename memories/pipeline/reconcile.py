"""Stage 5, reconcile: compare each candidate with what the user's memory already holds.

- Near-duplicate (same user, type and subject; normalized text equal, or rapidfuzz
  token_sort_ratio ≥ `memory.duplicate_similarity_threshold`; events must also
  fall on the same day) → the candidate becomes a reinforcement of that memory.
- Same subject + attribute (residence, employer, diet, prefers:meetings, …) with a
  new value → the old active memories are marked for supersession.
Reads only; persist applies the decisions in the message's transaction.
"""
import re
from functools import reduce
from operator import and_

from django.contrib.postgres.search import SearchQuery
from rapidfuzz import fuzz

from memories.models import Memory, Status
from memories.pipeline.base import Candidate, IngestContext, Stage, WorkItem
from recall_site.config import recall_setting

LOOKUP_LIMIT = 50
KEY_WORDS = 3
_WORDS = re.compile(r"[a-z0-9]{3,}")


def normalized_text(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.casefold()))


def near_duplicate(user_id: str, candidate: Candidate) -> Memory | None:
    """The active memory this candidate repeats, if any (the most similar of the lexical matches)."""
    rows = Memory.objects.filter(user_id=user_id, type=candidate.type, status=Status.ACTIVE)
    subject = candidate.subject.entity if candidate.subject else None
    rows = rows.filter(subject=subject) if subject else rows.filter(subject__isnull=True)
    # A near-duplicate shares the candidate's longest words: an AND of those hits the GIN index selectively.
    words = sorted(set(_WORDS.findall(candidate.content.casefold())), key=len, reverse=True)[:KEY_WORDS]
    if words:
        rows = rows.filter(search_vector=reduce(and_, (SearchQuery(word, config="english") for word in words)))
    threshold = recall_setting("memory.duplicate_similarity_threshold")
    wanted = normalized_text(candidate.content)
    best, best_score = None, threshold
    for memory in rows.defer("embedding", "search_vector")[:LOOKUP_LIMIT]:  # whole rows: no second read
        if not _same_day(memory.valid_from, candidate.valid_from, candidate.type):
            continue
        existing = normalized_text(memory.content)
        score = 100.0 if existing == wanted else fuzz.token_sort_ratio(existing, wanted)
        if score >= best_score:
            best, best_score = memory, score
    return best


def _same_day(existing, new, memory_type: str) -> bool:
    if memory_type != "event" or existing is None or new is None:
        return True
    return existing.date() == new.date()


def superseded_by_candidate(user_id: str, candidate: Candidate) -> list[Memory]:
    subject = candidate.subject.entity if candidate.subject else None
    if not candidate.attribute or subject is None:
        return []
    return list(Memory.objects.filter(user_id=user_id, subject=subject, attribute=candidate.attribute,
                                      status=Status.ACTIVE).only("pk", "user_id", "session_id"))


class Reconcile(Stage):
    name = "reconcile"

    def run(self, item: WorkItem, context: IngestContext) -> None:
        for candidate in item.candidates:
            existing = near_duplicate(context.user_id, candidate)
            if existing:
                candidate.action, candidate.existing = "reinforce", existing
            else:
                candidate.supersedes = superseded_by_candidate(context.user_id, candidate)
