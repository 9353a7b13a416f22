"""Small builders for test data. Each writes through the real services and database."""
from entities.services import entity_create, relation_upsert
from memories.services import memory_create


def memory(user_id="alice", content="likes green tea", *, session_id="s1", type="preference",
           domain="personal", entities=(), **fields):
    return memory_create(user_id=user_id, session_id=session_id, type=type, content=content,
                         domain=domain, entities=entities, **fields)


def person(user_id="alice", name="Sarah Chen", **fields):
    return entity_create(user_id=user_id, name=name, **fields)


def relation(subject, predicate, obj, **fields):
    return relation_upsert(subject=subject, predicate=predicate, object=obj, **fields)
