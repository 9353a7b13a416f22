"""Portability fixtures: a full world of alice's (pipeline memories, people, aliases, relations, reviews,
history, a profile, message texts), a second user id she may act for, and reading a streamed export."""
import json

import pytest

from access.models import UserIdGrant
from entities.models import Entity, EntityReview, EntityReviewKind
from entities.services import alias_add, mentions_record, unresolved_record
from memories.models import HistoryAction, Memory
from memories.services import history_record, memory_supersede, profile_update
from tests import factories

COPY = "alice-copy"


def messages(*contents, session_id="chat-1"):
    return {"user_id": "alice", "session_id": session_id, "source": "import", "messages": [
        {"role": "user", "content": text, "timestamp": "2026-11-30T10:00:00Z", "id": f"{session_id}-m{i}"}
        for i, text in enumerate(contents)]}


@pytest.fixture
def alice_world(alice_api):
    """What Recall holds for alice after a conversation, a few remembers and some review work."""
    ingest = alice_api.post("/api/v1/ingest", messages(
        "lunch with Sarah Chen Thursday", "Alex is Sarah's partner", "I work at Volkswagen",
        "my sister Emma is moving to Bergen next month"), format="json")
    assert ingest.status_code == 200, ingest.content
    sarah = Entity.objects.live().get(user_id="alice", canonical_name="Sarah Chen")
    alias_add(entity=sarah, alias="Dr. Chen")
    dana = factories.person(name="Dana Chen")
    mentions_record(entities=[dana], session_id="s2", source_message_id="m9")
    EntityReview.objects.create(user_id="alice", kind=EntityReviewKind.AMBIGUOUS_MATCH, entity=sarah, candidate=dana)
    unresolved_record(user_id="alice", session_id="s2", mention="the florist")
    old = factories.memory(content="lives in Berlin", type="fact", session_id="s2", attribute="residence",
                           entities=[(sarah, "mention")], pinned=True)
    new = factories.memory(content="lives in Munich", type="fact", session_id="s3", attribute="residence",
                           needs_review=True, review_reason="auto_memory", details={"why": ["moved"]})
    memory_supersede(old=old, new=new, at=new.created_at)
    history_record(new, HistoryAction.PINNED, session_id="s3")
    profile_update(user_id="alice", actor="alice", name="Alice", favorites={"coffee": "flat white"})
    return {"sarah": sarah, "dana": dana, "old": old, "new": new}


@pytest.fixture
def alice_copy(alice):
    """alice's account may also act for `alice-copy`, an empty user id to import into."""
    UserIdGrant.objects.create(account=alice, user_id=COPY)
    return COPY


def read_export(response) -> dict:
    assert response.status_code == 200, response.content
    assert response.streaming
    return json.loads(b"".join(response.streaming_content))


def memory_count(user_id: str) -> int:
    return Memory.objects.filter(user_id=user_id).count()
