"""Stage 6, infer: behavioural patterns become preference candidates.

An event carrying `details.pattern_key` (e.g. "avoid:monday:morning" for "moved my
Monday 9am meeting") counts towards one inferred preference ("prefers not to
have Monday morning commitments"). Each distinct session showing the behaviour is
one occurrence: confidence starts at `memory.pattern_start_confidence` and rises
by `memory.pattern_confidence_step` per further session; the preference leaves
the review queue (auto-promoted) only at ≥ `pattern_promote_confidence` AND
≥ `pattern_promote_min_occurrences` occurrences — never before.
"""
from memories.models import Memory, MemoryType, Source, Status
from memories.pipeline.base import Candidate, IngestContext, Mention, Stage, WorkItem
from memories.pipeline.resolve_refs import user_self
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


def pattern_candidate(user_id: str, session_id: str, pattern_key: str, subject: Mention) -> Candidate:
    existing = Memory.objects.filter(user_id=user_id, type=MemoryType.PREFERENCE, status=Status.ACTIVE,
                                     details__pattern_key=pattern_key).defer("embedding").first()
    sessions = list(existing.details.get("pattern_sessions", [])) if existing else []
    if session_id not in sessions:
        sessions.append(session_id)
    occurrences = len(sessions)
    confidence = pattern_confidence(occurrences)
    promoted = is_promoted(confidence, occurrences)
    return Candidate(
        type=MemoryType.PREFERENCE, content=pattern_content(pattern_key), confidence=confidence,
        importance=float(recall_setting("memory.importance")["inferred"]), mentions=[subject],
        domain="scheduling", needs_review=not promoted, review_reason="" if promoted else "inferred",
        source=Source.INFERRED, action="pattern" if existing else "create", existing=existing,
        details={"pattern_key": pattern_key, "pattern_sessions": sessions, "inferred": True,
                 "occurrences": occurrences},
    )


class Infer(Stage):
    name = "infer"

    def run(self, item: WorkItem, context: IngestContext) -> None:
        keys = {c.details["pattern_key"] for c in item.candidates if c.details.get("pattern_key")}
        for key in sorted(keys):
            me = Mention("me", kind="self", role="subject", entity=user_self(context))
            item.candidates.append(pattern_candidate(context.user_id, context.session_id, key, me))
