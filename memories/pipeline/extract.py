"""Stage 2, extract: turn a relevant user message into typed candidate memories.

Extractors share one interface (`Message → list[Candidate]`) and are registered
by name in `EXTRACTORS`: the rule-based one in `rules.py` (default, offline,
deterministic) and the LLM one in `llm.py` (`memory.extractor: llm`); a later one
is one more entry. Any failure of the LLM extractor (`LLMExtractionError`), or an
empty answer for a message the pre_filter judged relevant, falls back to the
rules, which never return nothing:
a relevant message matching no pattern is kept as an episodic event with the
words as said (see `rules.py`). Both take a transcript line's speaker
(`Message.speaker`) as the "I" of the message, and every candidate of that line
is linked to the speaker (as its subject unless it has one).
"""
import logging

from memories.pipeline.base import Candidate, Message, Stage, WorkItem, first_person
from memories.pipeline.llm import LLMExtractionError, llm_candidates
from memories.pipeline.rules import extract_candidates
from recall_site.config import recall_setting

logger = logging.getLogger(__name__)


FALLBACK = "rules"
EXTRACTORS = {"rules": extract_candidates, "llm": llm_candidates}


def candidates_for(message: Message) -> list[Candidate]:
    name = recall_setting("memory.extractor")
    if name != FALLBACK:
        try:
            if found := EXTRACTORS[name](message):
                return found
        except LLMExtractionError as error:
            logger.warning("%s extractor failed, using rules: %s", name, error)
    found = EXTRACTORS[FALLBACK](message)
    for candidate in found:
        candidate.details.setdefault("extractor", FALLBACK)
    return found


def speaker_linked(found: list[Candidate], message: Message) -> list[Candidate]:
    """Every memory of a speaker's line names the speaker, as its subject unless it has one."""
    if not message.speaker:
        return found
    for candidate in found:
        speaker = next((m for m in candidate.mentions if m.kind == "person" and m.text == message.speaker), None)
        if speaker is None:
            speaker = first_person(message)
            candidate.mentions.insert(0, speaker)
        candidate.subject = candidate.subject or speaker
    return found


class Extract(Stage):
    name = "extract"
    in_transaction = False

    def applies(self, context) -> bool:
        return not context.explicit  # remember_memory's candidate is given, not extracted

    def run(self, item: WorkItem, context) -> None:
        item.candidates = speaker_linked(candidates_for(item.message), item.message)
