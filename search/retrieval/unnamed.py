"""The query as semantic search embeds it: the people it names put as "they".

A name weighs heavily in a MiniLM vector. "What activities does Melanie partake
in?" embedded whole lies close to every memory that names Melanie, whatever it
says, and the memory saying she went swimming is lost among them. Who a memory is
about is the graph's to say (the memories linked to a person the query names
rank first, ranking.py); the vector is left to match what is asked. Memories are
embedded without their line's speaker for the same reason (memories/sentences.py).
On the LoCoMo dev conversations this took multi-hop R@10 from 0.509 to 0.564
(docs/benchmarks.md, session 16).

The query is embedded before its names are resolved (the embedding overlaps that
database work), so the names are guessed: as the same capitalised words resolved
the last time (search/retrieval/__init__.py), else from the text, capitalised
words after the first, with the query as written encoded alongside. A guess is
kept when the people resolved agree with it; otherwise the query is embedded
again as the resolved names say.
"""
import re

_NAME = re.compile(r"(?<!^)(?<![.!?]\s)\b[A-Z][\w’'-]*(?:\s+[A-Z][\w’'-]*)*")
_POSSESSIVE = re.compile(r"(?:'s|’s)$")


def capitalised_names(query: str) -> list[str]:
    """Capitalised words and runs of them after the query's first word, possessives cut ("Jon's" → "Jon")."""
    names = [_POSSESSIVE.sub("", match.group(0)) for match in _NAME.finditer(query.strip())]
    return [name for name in names if name != "I"]


def without_names(query: str, names: list[str]) -> str:
    """`query` with each of `names` put as "they" ("their" for a possessive)."""
    for name in sorted(set(names), key=len, reverse=True):
        query = re.sub(rf"\b{re.escape(name)}(?:'s|’s)(?!\w)", "their", query)
        query = re.sub(rf"\b{re.escape(name)}\b", "they", query)
    return query


def written_names(query: str, mentions: list[str]) -> list[str]:
    """The mentions the query writes as names (capitalised), not role phrases such as "my boss"."""
    return [mention for mention in mentions if mention[:1].isupper() and re.search(rf"\b{re.escape(mention)}\b", query)]
