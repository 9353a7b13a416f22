"""A memory that superseded others is also found by what they said: their vectors become sentence rows of it.

"Finished The Hobbit! Starting The Fellowship of the Ring next" supersedes "I'm reading The Hobbit right now";
asked "what book am I reading", the model puts the new message at cosine 0.19, below the semantic floor (it does
not know the Hobbit is a book), while the stale one matched well, and search found nothing. The superseded
memory's vector, kept as one of the new memory's sentence rows (`MemorySentence.inherited_from` names the one it
came from), lets the question that found the old value find the memory that replaced it: search matches a memory
by its whole text and its best sentence (memories/sentences.py). Only vectors move, never words; the rows follow
the supersession chain (a memory superseded twice reaches the latest), are rebuilt whenever a memory of the chain
is embedded or superseded, and go when the memory they came from is edited or forgotten.
"""
from django.db import connection

from memories.models import Memory, MemorySentence

MAX_CHAIN = 10  # supersessions followed from one memory: a longer chain is a loop or a mistake

_LATER = f"""
WITH RECURSIVE later(id, depth) AS (
    SELECT id, 0 FROM {Memory._meta.db_table} WHERE user_id = %(user_id)s AND id = ANY(%(ids)s)
    UNION
    SELECT m.superseded_by_id, later.depth + 1 FROM {Memory._meta.db_table} m JOIN later ON m.id = later.id
    WHERE m.user_id = %(user_id)s AND m.superseded_by_id IS NOT NULL AND later.depth < {MAX_CHAIN}
)
SELECT DISTINCT id FROM later
"""

_REBUILT = f"""
WITH RECURSIVE earlier(successor, id, depth) AS (
    SELECT superseded_by_id, id, 1 FROM {Memory._meta.db_table}
    WHERE user_id = %(user_id)s AND superseded_by_id = ANY(%(ids)s)
    UNION
    SELECT earlier.successor, m.id, earlier.depth + 1 FROM {Memory._meta.db_table} m
    JOIN earlier ON m.superseded_by_id = earlier.id
    WHERE m.user_id = %(user_id)s AND earlier.depth < {MAX_CHAIN}
), removed AS (
    DELETE FROM {MemorySentence._meta.db_table}
    WHERE user_id = %(user_id)s AND memory_id = ANY(%(ids)s) AND inherited_from IS NOT NULL
)
INSERT INTO {MemorySentence._meta.db_table} (user_id, memory_id, embedding, inherited_from)
SELECT DISTINCT ON (earlier.successor, m.id) %(user_id)s, earlier.successor, m.embedding, m.id
FROM earlier JOIN {Memory._meta.db_table} m ON m.id = earlier.id AND m.user_id = %(user_id)s
WHERE m.embedding IS NOT NULL AND earlier.successor <> m.id
"""


def vectors_inherited(user_id: str, memory_ids: list[int]) -> None:
    """Rebuild the inherited rows of these memories and of every memory that superseded them, directly or down
    the chain: each holds the vectors of all the memories it replaced."""
    if not memory_ids:
        return
    with connection.cursor() as cursor:
        cursor.execute(_LATER, {"user_id": user_id, "ids": list(memory_ids)})
        later = [row[0] for row in cursor.fetchall()]
        cursor.execute(_REBUILT, {"user_id": user_id, "ids": later})


def inherited_vectors_dropped(user_id: str, memory_ids: list[int]) -> int:
    """Delete the rows inherited from these memories (edited or forgotten); how many went."""
    if not memory_ids:
        return 0
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {MemorySentence._meta.db_table} WHERE user_id = %s AND inherited_from = ANY(%s)",
                       [user_id, list(memory_ids)])
        return cursor.rowcount
