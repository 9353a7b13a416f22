"""Retrieval fixtures: embedded memories, the seed's Sarah/Alex graph, and a deterministic canary.

The startup canary is bypassed for these tests (PYPIBOT_SEMANTIC_CANARY_BYPASS's
config key) so a busy machine cannot flip semantic retrieval off mid-suite;
test_readiness.py runs the real canary.
"""
from datetime import timedelta

import pytest
from django.utils import timezone

from entities.services import alias_add, mentions_record
from tests import factories


@pytest.fixture(autouse=True)
def _canary_bypassed(canary_bypassed):  # tests/conftest.py
    yield


@pytest.fixture
def remember(db, django_capture_on_commit_callbacks):
    """Write a memory through memory_create and run its embedding (on commit), like the worker would."""

    def write(content, *, user_id="alice", type="fact", domain="personal", age_days=0, **fields):
        if age_days:
            then = timezone.now() - timedelta(days=age_days)
            fields.setdefault("created_at", then)
            fields.setdefault("last_reinforced_at", then)
        with django_capture_on_commit_callbacks(execute=True):
            return factories.memory(user_id, content, type=type, domain=domain, **fields)

    return write


@pytest.fixture
def seed_world(remember):
    """Alice's world from the seed: Sarah Chen, her partner Alex, a work proposal, an allergy, a Berlin trip."""
    sarah = factories.person("alice", "Sarah Chen")
    alias_add(entity=sarah, alias="my college roommate")
    alex = factories.person("alice", "Alex")
    factories.relation(alex, "partner_of", sarah)
    for entity in (sarah, alex):
        mentions_record(entities=[entity], session_id="s1")
    return {
        "sarah": sarah,
        "alex": alex,
        "move": remember("Alex is worried about the apartment move to Hamburg", type="event",
                         entities=[alex]),
        "marriage": remember("Sarah's proposal to get married last month", type="event",
                             domain="relationship", sensitive=True, entities=[sarah]),
        "allergy": remember("Allergic to penicillin", domain="health", sensitive=True, importance=0.9,
                            age_days=60),
        "template": remember("Work proposals follow the problem, approach, budget and timeline structure",
                             domain="professional"),
        "berlin_flights": remember("Berlin trip: flights booked for May 3", type="event", domain="scheduling"),
        "berlin_bakery": remember("Berlin trip: wants to visit Sarah's favourite bakery in Kreuzberg",
                                  type="preference", entities=[sarah]),
    }
