"""A memory's sentences, each searched by meaning on its own (MemorySentence rows).

One vector for a long turn averages its sentences: "Yep. Taking care of ourselves
is vital. I'm off to go swimming with the kids. Talk to you soon!" lies far from
"what activities does Melanie do?" although one sentence answers it. Semantic
search takes a memory's best match over its whole text and each of its sentences
(on the LoCoMo dev conversations, cosine alone over memories found 0.525 of the
evidence in its top 10 with one vector per memory, 0.624 with the best sentence).
A memory of one sentence has no rows: its own vector is that sentence's.
"""
import re
from collections.abc import Collection

# A sentence ends at . ! ? or a line break, before whitespace.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\s*\n+\s*")
_SPEAKER = re.compile(r"^([A-Z][\w .'’-]{0,40}): ")
MIN_WORDS = 3  # shorter pieces ("Yep.", "Wow!") say nothing on their own
MAX_SENTENCES = 12


def embedding_text(content: str, people: Collection[str] = ()) -> str:
    """What of a memory's text is embedded: the words said, without the line's speaker ("Marco: …") when
    the speaker is one of `people` (the names of the persons the memory is linked to). Any other label
    before a colon ("Redis memory usage: …", "Update: …") is words of the memory and stays."""
    speaker = _SPEAKER.match(content)
    if speaker and speaker.group(1).casefold() in {name.casefold() for name in people}:
        return content[speaker.end():]
    return content


def sentence_texts(content: str, people: Collection[str] = ()) -> list[str]:
    """The sentences of `content` worth a vector of their own, without the line's speaker (as
    `embedding_text`); [] when there are fewer than two."""
    sentences = [s for s in (piece.strip() for piece in _SENTENCE_END.split(embedding_text(content, people)))
                 if len(s.split()) >= MIN_WORDS]
    return sentences[:MAX_SENTENCES] if len(sentences) >= 2 else []
