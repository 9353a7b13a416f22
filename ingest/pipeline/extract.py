"""Stage 2, extract: turn a relevant user message into typed candidate memories.

Extractors share one interface (`Message → list[Candidate]`) and are registered
by name in `EXTRACTORS`: the rule-based one in `rules.py` (default, offline,
deterministic) and the LLM one in `llm.py` (`memory.extractor: llm`); a later one
is one more entry. Before extracting, the stage reads which of the batch's
sentence-first capitalised words the user's history knows as names (named in
mid-sentence in the batch, a speaker's name, or an entity or alias of the user's:
one statement, only for the words that need it), so that "Caroline loved it"
names Caroline and "Super excited!" names nobody (`names_in_text`). Any failure
of the LLM extractor (`LLMExtractionError`), or an empty answer for a message the
pre_filter judged relevant, falls back to the rules, which never return nothing:
a relevant message matching no pattern is kept as an episodic event with the
words as said (see `rules.py`). Both take a transcript line's speaker
(`Message.speaker`) as the "I" of the message, and every candidate of that line
is linked to the speaker (as its subject unless it has one). An assistant message
is never read for facts about anyone: its passages of substance are kept as what
the assistant said (`assistant_turns.py`).
"""
import logging

from entities.names import normalize_name
from entities.selectors import known_name_forms
from ingest.pipeline.assistant_turns import ASSISTANT, assistant_candidates
from ingest.pipeline.base import Candidate, IngestContext, Message, Rejected, Stage, WorkItem, first_person
from ingest.pipeline.llm import LLMExtractionError, llm_candidates
from ingest.pipeline.names_in_text import mid_sentence_names, names_known, sentence_first_words
from ingest.pipeline.rules import extract_candidates
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

    def run_batch(self, items: list[WorkItem], context: IngestContext) -> None:
        said = [item.message for item in items if item.rejection is None and item.message.role != ASSISTANT]
        context.known_names = known_names(said, context)
        super().run_batch(items, context)

    def run(self, item: WorkItem, context: IngestContext) -> None:
        if item.message.role == ASSISTANT:
            item.candidates = assistant_candidates(item.message)
            if not item.candidates:
                raise Rejected(self.name, "no_substance")  # every passage a pleasantry
            return
        with names_known(context.known_names):
            item.candidates = speaker_linked(candidates_for(item.message), item.message)


def known_names(messages: list[Message], context: IngestContext) -> frozenset[str]:
    """The normalised names the batch's sentences may start with: its speakers', those it writes in
    mid-sentence, and those of its sentence-first words that name one of the user's entities."""
    known = {normalize_name(m.speaker) for m in messages if m.speaker}
    for message in messages:
        known |= mid_sentence_names(message.content)
    wanted = set().union(*(sentence_first_words(m.content) for m in messages)) - known
    return frozenset(known | known_name_forms(context.user_id, wanted))
