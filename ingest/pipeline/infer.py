"""Stage 6, infer: behavioural patterns become preference candidates.

An event carrying `details.pattern_key` (e.g. "avoid:monday:morning" for "moved my
Monday 9am meeting") suggests one inferred preference ("prefers not to have Monday
morning commitments", `patterns.py`). The new candidate then goes through the same
tag_domain, resolve_refs and reconcile steps as every other candidate — reconcile
counts the sessions that showed the behaviour and decides whether it is promoted
out of review.
"""
from ingest.pipeline.base import IngestContext, Stage, WorkItem
from ingest.pipeline.patterns import pattern_candidate
from ingest.pipeline.reconcile import reconcile_candidates
from ingest.pipeline.resolve_refs import resolve_candidates
from ingest.pipeline.tag_domain import tag_candidates


class Infer(Stage):
    name = "infer"

    def applies(self, context: IngestContext) -> bool:
        return not context.explicit  # what the user asked to remember is not a behaviour

    def run(self, item: WorkItem, context: IngestContext) -> None:
        keys = {c.details["pattern_key"] for c in item.candidates if c.details.get("pattern_key")}
        inferred = [pattern_candidate(key) for key in sorted(keys)]
        if inferred:
            tag_candidates(inferred)
            resolve_candidates(inferred, context)
            reconcile_candidates(inferred, context)
            item.candidates.extend(inferred)
