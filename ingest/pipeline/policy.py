"""The auto-memory policy stage (before persist): the `memory.auto_*` keys for auto-reflection memories.

- `auto_memory_enabled: false` → an auto_reflection ingest stores nothing (the runner rejects every message);
- `auto_memory_min_confidence` → candidates below it are rejected;
- `require_confirmation_for_auto_memory` → stored with needs_review, review_reason auto_memory;
- `auto_pin_min_importance` → pinned; with `auto_pin_requires_review` also needs_review (auto_pinned),
  which keeps it out of the startup digest until approved (a doubtful reason, e.g. ambiguous_entity, is kept).
Memories waiting only for confirmation or auto-pin review are searchable meanwhile (retrieval/eligible.py).
Other sources (manual_tool, import), inferred patterns and reinforcements are not gated here.
"""
from ingest.pipeline.base import Candidate, IngestContext, Rejected, Stage, WorkItem
from memories.models import SEARCHABLE_REVIEW_REASONS, Source
from recall_site.config import recall_setting


def auto_memory_disabled(context: IngestContext) -> bool:
    return context.source == Source.AUTO_REFLECTION and not recall_setting("memory.auto_memory_enabled")


def apply_auto_memory_policy(candidate: Candidate, context: IngestContext) -> None:
    if context.source != Source.AUTO_REFLECTION or candidate.source:
        return
    memory = recall_setting("memory")
    if candidate.confidence < memory["auto_memory_min_confidence"]:
        raise Rejected("persist", "below_auto_memory_min_confidence", candidate.confidence)
    if memory["require_confirmation_for_auto_memory"]:
        candidate.needs_review = True
        candidate.review_reason = candidate.review_reason or "auto_memory"
    if candidate.importance >= memory["auto_pin_min_importance"]:
        candidate.pinned = True
        if memory["auto_pin_requires_review"]:
            doubtful = candidate.needs_review and candidate.review_reason not in SEARCHABLE_REVIEW_REASONS
            candidate.needs_review = True
            candidate.review_reason = candidate.review_reason if doubtful else "auto_pinned"


class AutoMemoryPolicy(Stage):
    name = "policy"

    def applies(self, context: IngestContext) -> bool:
        return context.source == Source.AUTO_REFLECTION

    def run(self, item: WorkItem, context: IngestContext) -> None:
        for candidate in item.candidates:
            if candidate.action == "create":
                try:
                    apply_auto_memory_policy(candidate, context)
                except Rejected as rejected:
                    candidate.rejected = rejected
