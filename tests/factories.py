"""Small builders for test data. Each writes through the real services and database."""
import itertools

from django.db import connection

from entities.services import entity_create, relation_upsert
from memories.partitions import partition_of
from memories.services import memory_create


def memory(user_id="alice", content="likes green tea", *, session_id="s1", type="preference",
           domain="personal", entities=(), **fields):
    return memory_create(user_id=user_id, session_id=session_id, type=type, content=content,
                         domain=domain, entities=entities, **fields)


def person(user_id="alice", name="Sarah Chen", **fields):
    return entity_create(user_id=user_id, name=name, **fields)


def relation(subject, predicate, obj, **fields):
    return relation_upsert(subject=subject, predicate=predicate, object=obj, **fields)


def users_in_the_partition_of(user_id: str, count: int) -> list[str]:
    """`count` user ids ("bob<n>") whose memories share `user_id`'s partition (memories/partitions.py)."""
    with connection.cursor() as cursor:
        wanted = partition_of(cursor, user_id)
        return list(itertools.islice((f"bob{n}" for n in itertools.count()
                                      if partition_of(cursor, f"bob{n}") == wanted), count))
