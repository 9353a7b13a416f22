"""Forgetting fixtures: Alice's small world around Sarah Chen, and a residue scanner."""
from dataclasses import dataclass
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone
from django_q.models import OrmQ
from django_q.signing import SignedPackage

from audit.services import audit_record
from entities.models import Entity
from entities.services import alias_add, mentions_record, unresolved_record
from memories.models import Memory, SessionDialogue, TurnInjection
from memories.services import profile_update
from tests import factories

RESIDUE_APPS = ("memories_", "entities_", "audit_", "django_q_")
TEXT_TYPES = ("text", "character varying", "json", "jsonb", "ARRAY")


@dataclass
class SarahWorld:
    sarah: Entity
    alex: Entity
    acme: Entity
    lunch: Memory
    email: Memory
    same_session: Memory
    alex_climbs: Memory
    old_tea: Memory
    bobs_sarah: Entity
    bobs_memory: Memory


def queue_embedding_task(memory_ids: list[int]) -> OrmQ:
    """A django-q2 task waiting in the ORM broker, as a worker would find it."""
    package = {"id": "t1", "name": "embed", "func": "memories.tasks.embed_memories",
               "args": (list(memory_ids),), "kwargs": {}, "started": timezone.now()}
    return OrmQ.objects.create(key="recall", payload=SignedPackage.dumps(package), lock=timezone.now())


@pytest.fixture
def sarah_world(db) -> SarahWorld:
    sarah = factories.person(name="Sarah Chen")
    for alias in ("Sarah", "Dr. Chen", "Sasha"):
        alias_add(entity=sarah, alias=alias)
    alex = factories.person(name="Alex Rivera")
    alias_add(entity=alex, alias="Sarah's partner")
    acme = factories.person(name="Acme", kind="org")
    factories.relation(alex, "partner_of", sarah)
    factories.relation(sarah, "works_at", acme)
    factories.relation(alex, "works_at", acme)
    mentions_record(entities=[sarah], session_id="s1")
    mentions_record(entities=[sarah], session_id="s2")
    mentions_record(entities=[alex], session_id="s3")
    unresolved_record(user_id="alice", session_id="s9", mention="Sasha's mother")
    unresolved_record(user_id="alice", session_id="s1", mention="the florist")
    unresolved_record(user_id="alice", session_id="s3", mention="the plumber")
    lunch = factories.memory(content="lunch with Sarah Thursday", type="event", session_id="s1", entities=[sarah])
    email = factories.memory(content="Dr. Chen prefers email", session_id="s2", entities=[(sarah, "subject")])
    same_session = factories.memory(content="deadline moved to Friday", type="fact", session_id="s1")
    alex_climbs = factories.memory(content="Alex goes climbing on Sundays", type="fact", session_id="s3",
                                   entities=[alex])
    old_tea = factories.memory(content="likes black tea", session_id="s3")
    Memory.objects.filter(pk=old_tea.pk).update(status="superseded", superseded_by=email)
    TurnInjection.objects.create(user_id="alice", session_id="s3", memory_ids=[email.pk, alex_climbs.pk])
    TurnInjection.objects.create(user_id="alice", session_id="s1", memory_ids=[lunch.pk])
    for user_id, session_id in (("alice", "s1"), ("alice", "s3"), ("alice", "s4"), ("bob", "s1")):
        SessionDialogue.objects.create(user_id=user_id, session_id=session_id, said_by="0" * 16, asked=True,
                                       at=timezone.now())
    profile_update(user_id="alice", actor="alice", favorites={"colleague": "Sarah", "food": "ramen"})
    audit_record(actor="alice", action="note", user_id="alice", reason="asked what SARAH said")
    bobs_sarah = factories.person(user_id="bob", name="Sarah Chen")
    bobs_memory = factories.memory(user_id="bob", content="Sarah Chen is my dentist", session_id="s1",
                                   entities=[bobs_sarah])
    return SarahWorld(sarah, alex, acme, lunch, email, same_session, alex_climbs, old_tea, bobs_sarah, bobs_memory)


def residue(user_id: str, words: list[str]) -> list[str]:
    """Every (table.column) of our apps and django-q2 whose rows of `user_id` still contain a word. A
    partitioned table is read whole through its parent, so its partitions are not listed again."""
    found = []
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT table_name, column_name, data_type FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND data_type = ANY(%s) AND NOT EXISTS (SELECT 1 FROM "
            "pg_inherits WHERE inhrelid = format('%%I.%%I', table_schema, table_name)::regclass)",
            [list(TEXT_TYPES)])
        columns = [row for row in cursor.fetchall() if row[0].startswith(RESIDUE_APPS)]
        has_user = {table for table, column, _ in columns if column == "user_id"}
        for table, column, _ in columns:
            where = 'AND "user_id" = %s' if table in has_user else ""
            for word in words:
                cursor.execute(
                    f'SELECT count(*) FROM "{table}" WHERE "{column}"::text ILIKE %s {where}',
                    [f"%{word}%"] + ([user_id] if where else []))
                if cursor.fetchone()[0]:
                    found.append(f"{table}.{column} ~ {word}")
    return found


def days_ago(days: float):
    return timezone.now() - timedelta(days=days)
