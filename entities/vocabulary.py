"""The words for the people in a user's life, for every module that spots them in text: the domain gate
(search/retrieval/gating.py), the domain tagger and the pre-filter's cues (ingest/pipeline/), the roles a
user has one of at a time (entities/services.py). Each module adds the words only it needs."""

PARTNERS = ("partner", "wife", "husband", "girlfriend", "boyfriend")
CLOSE_FAMILY = ("sister", "brother", "sibling", "mom", "mum", "mother", "dad", "father", "son", "daughter")
AT_WORK = ("manager", "boss", "colleague", "coworker", "co-worker", "client")
CARERS = ("doctor", "therapist", "dentist")


def alternatives(*groups: tuple[str, ...]) -> str:
    """The words of these groups as a regex alternation ("partner|wife|…"), in order."""
    return "|".join(word for group in groups for word in group)
