"""Inferred behavioural patterns: the preference a repeated behaviour becomes, and how sure we are of it.

Each distinct session showing the behaviour is one occurrence: confidence starts
at `memory.pattern_start_confidence` and rises by `memory.pattern_confidence_step`
per further session; the preference leaves the review queue (auto-promoted) only at
≥ `pattern_promote_confidence` AND ≥ `pattern_promote_min_occurrences` occurrences.
infer makes the candidate; reconcile counts it against the preference already inferred.
"""
from ingest.pipeline.base import Candidate, IngestContext, Mention, default_importance
from memories.models import Memory, MemoryType, Source, Status
from recall_site.config import recall_setting

DAYPART_WORDS = {"morning": "morning", "afternoon": "afternoon", "evening": "evening", "night": "evening"}


def pattern_content(pattern_key: str) -> str:
    _, weekday, daypart = pattern_key.split(":")
    return f"Prefers not to have {weekday.capitalize()} {DAYPART_WORDS.get(daypart, daypart)} commitments"


def pattern_confidence(occurrences: int) -> float:
    memory = recall_setting("memory")
    raw = memory["pattern_start_confidence"] + memory["pattern_confidence_step"] * (occurrences - 1)
    return round(min(raw, 0.99), 4)


def is_promoted(confidence: float, occurrences: int) -> bool:
    memory = recall_setting("memory")
    return confidence >= memory["pattern_promote_confidence"] and occurrences >= memory["pattern_promote_min_occurrences"]


def pattern_candidate(pattern_key: str) -> Candidate:
    """The preference a behaviour suggests, as one occurrence; reconcile counts the earlier ones."""
    return Candidate(
        type=MemoryType.PREFERENCE, content=pattern_content(pattern_key), confidence=pattern_confidence(1),
        importance=default_importance("inferred"), mentions=[Mention("me", kind="self", role="subject")],
        domain="scheduling", needs_review=True, review_reason="inferred", source=Source.INFERRED,
        details={"pattern_key": pattern_key, "inferred": True},
    )


def is_inferred_pattern(candidate: Candidate) -> bool:
    return candidate.source == Source.INFERRED and bool(candidate.details.get("pattern_key"))


def pattern_reconciled(candidate: Candidate, context: IngestContext) -> None:
    """Count this session towards the preference already inferred from the same behaviour (action
    "pattern"), or start it (action "create"); promoted out of review only past both thresholds."""
    key = candidate.details["pattern_key"]
    existing = Memory.objects.filter(user_id=context.user_id, type=MemoryType.PREFERENCE, status=Status.ACTIVE,
                                     details__pattern_key=key).defer("embedding").first()
    sessions = list(existing.details.get("pattern_sessions", [])) if existing else []
    if context.session_id not in sessions:
        sessions.append(context.session_id)
    occurrences = len(sessions)
    candidate.confidence = pattern_confidence(occurrences)
    promoted = is_promoted(candidate.confidence, occurrences)
    candidate.needs_review, candidate.review_reason = not promoted, "" if promoted else "inferred"
    candidate.details |= {"pattern_sessions": sessions, "occurrences": occurrences}
    candidate.action, candidate.existing = ("pattern", existing) if existing else ("create", None)
