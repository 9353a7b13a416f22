"""Names given in answer: "What are their names?" — "Luna and Oliver!".

In a conversation a pet or a child is often named only when someone asks: Melanie says "We've got a pup and
a kitty", Caroline asks "What are their names?", Melanie answers "Luna and Oliver!". The answer alone says
nothing of what Luna is. `names_answer` reads the dialogue around a message (the message before it and the
speaker's own last few lines) and says what the names it gives are: a pet ("pup") or a child ("baby"), or
nothing. The rules then make the names pets or children of the speaker (`people_rules.answered_names`). A child
named in the same breath ("Our one-year-old is so cute, his name is Kyle!") counts too; a pet named so is
already read by the pet patterns. Only within one ingest call: a turn sent alone has no lines before it here.
"""
import re

from ingest.pipeline.base import Message
from ingest.pipeline.names_in_text import PET_WORDS

SPEAKER_LINES_BACK = 3  # how many of the speaker's own lines before may hold what the question asks about
_PET = re.compile(r"\b(?:my|our|a|an|the|this|that|another|new) (?:\w+ ){0,2}?(?P<what>"
                  + "|".join(sorted(map(re.escape, PET_WORDS), key=len, reverse=True)) + r")\b", re.IGNORECASE)
_CHILD = re.compile(r"\b(?:my|our|a|the|this|that|new) (?:\w+ )?(?P<what>baby|newborn|toddler|little one|son|"
                    r"daughter|kids?|children|\w+-(?:year|month|week)-old)\b", re.IGNORECASE)
_ASKS_NAME = re.compile(r"\bwhat(?:'s|’s| is| are| was| were|'re)? (?:(?:his|her|their|its|your \w+(?:'s|’s)?) )?"
                        r"names?\b|\bwhat (?:is|are|was|were) (?:he|she|they|it) called\b", re.IGNORECASE)
_NAMES_NOW = re.compile(r"\b(?:his|her|its|their) names?(?:'s|’s| is| are)\b", re.IGNORECASE)
CHILD = "child"


def names_answer(message: Message, before: Message | None, own_lines: list[Message]) -> str:
    """What the names this message gives are: a pet word ("pup"), CHILD, or "" (see the module docstring).
    `before` is the message it answers, `own_lines` the speaker's earlier lines, latest last."""
    if message.role != "user":
        return ""
    if (told := _NAMES_NOW.search(message.content)) and _CHILD.search(message.content[:told.start()]):
        return CHILD
    asked = before is not None and (before.role, before.speaker) != (message.role, message.speaker)
    if not (asked and _ASKS_NAME.search(before.content)):
        return ""
    for line in reversed(own_lines[-SPEAKER_LINES_BACK:]):
        pets, children = list(_PET.finditer(line.content)), list(_CHILD.finditer(line.content))
        if pets or children:
            last_pet = pets[-1].start() if pets else -1
            last_child = children[-1].start() if children else -1
            if last_child > last_pet:
                return CHILD
            kinds = {match.group("what").lower() for match in pets}
            return kinds.pop() if len(kinds) == 1 else "pet"  # "a pup and a kitty": which is which is not said
    return ""
