"""Stage 2, extract: turn a relevant user message into typed candidate memories.

Two extractors share one interface (`Message → list[Candidate]`): the rule-based
one in `rules.py` (default, offline, deterministic) and the LLM one in `llm.py`
(`memory.extractor: llm`). Any LLM failure, or an empty answer for a message the
pre_filter judged relevant, falls back to the rules, which never return nothing:
a relevant message matching no pattern is kept as an episodic event with the
user's words (see `rules.py`).
"""
import logging

from memories.pipeline.base import Stage, WorkItem
from memories.pipeline.llm import LLMExtractionError, llm_candidates
from memories.pipeline.rules import extract_candidates
from recall_site.config import recall_setting

logger = logging.getLogger(__name__)


def candidates_for(message):
    if recall_setting("memory.extractor") == "llm":
        try:
            found = llm_candidates(message)
            if found:
                return found
        except LLMExtractionError as error:
            logger.warning("LLM extractor failed, using rules: %s", error)
    found = extract_candidates(message)
    for candidate in found:
        candidate.details.setdefault("extractor", "rules")
    return found


class Extract(Stage):
    name = "extract"

    def run(self, item: WorkItem, context) -> None:
        item.candidates = candidates_for(item.message)
