"""Forgetting a person finds her by what the text says, not only by entity links: her names in any
case, her surname alone, "first name + initial", what was remembered about her by the tool, and the
entities and mentions that came only from her conversations."""
import random

import pytest

from audit.models import AuditEvent
from entities.models import Entity, EntityMention, Relation
from entities.resolver import resolve_mention
from forgetting.criteria import DeleteCriteria
from forgetting.services import deletion_preview, hard_delete
from ingest.remember import remember_memory
from memories.models import Memory
from search.hydration import startup_digest
from search.retrieval import search_memories
from tests.forgetting.conftest import residue
from tests.pipeline.conftest import ingest


def emma(user_id="alice") -> Entity:
    return Entity.objects.live().get(user_id=user_id, normalized_name="emma larsson")


def forget(entity: Entity, user_id="alice", reason=""):
    return hard_delete(user_id=user_id, criteria=DeleteCriteria(entity_refs=[entity.public_id]), actor=user_id,
                       audit_reason=reason)


def test_what_remember_memory_stored_about_her_goes_with_her(db):
    remember_memory(user_id="alice", actor="alice", session_id="assistant",
                    content="Emma Larsson's phone code is Kvikk-4711 and she lives at Bygdøy allé 12, Oslo",
                    pinned=True)
    assert "Kvikk-4711" in startup_digest("alice").text

    forget(emma())

    assert "Kvikk-4711" not in startup_digest("alice").text
    found = search_memories(user_id="alice", query="Emma's phone code", include_all_domains=True)
    assert not [hit for hit in found.hits if "Kvikk" in hit.memory.content]
    assert residue("alice", ["Larsson", "Kvikk", "Bygdøy"]) == []


def test_her_name_forms_in_other_sessions_and_the_entities_made_from_them_go(db):
    ingest("My friend Emma Larsson is moving to Bergen in the spring.", session_id="s1")
    ingest("emma larsson called me about her new job at Statoil.", session_id="s2")
    ingest("Had coffee with Larsson at Café Lido, we talked for hours.", session_id="s3")
    ingest("I need to buy a gift for Emma L. next week, her birthday is on Friday.", session_id="s4")
    ingest("My colleague Jonas Berg plays chess every Tuesday.", session_id="s5")
    names = set(Entity.objects.live().filter(user_id="alice").values_list("canonical_name", flat=True))
    assert {"Emma Larsson", "Jonas Berg"} <= names

    preview = deletion_preview(user_id="alice", criteria=DeleteCriteria(entity_refs=[emma().public_id]))
    assert {"s1", "s2", "s3", "s4"} <= set(preview["sessions"]) and "s5" not in preview["sessions"]
    assert len(preview["memories"]) == preview["counts"]["memories"] >= 4

    forget(emma())

    assert residue("alice", ["Larsson", "Emma L", "Statoil", "Lido"]) == []
    kept = list(Memory.objects.filter(user_id="alice").values_list("content", flat=True))
    assert kept and all("Jonas Berg" in content for content in kept)
    assert resolve_mention("alice", "Jonas Berg").entity is not None


def test_someone_else_with_her_first_name_keeps_his_memories(db):
    ingest("My friend Emma Larsson loves sailing.", session_id="s1")
    ingest("Emma Chen, my dentist, moved her practice to Main Street.", session_id="s2")
    ingest("Emma said the new practice opens on Monday.", session_id="s2")

    forget(emma())

    left = " ".join(Memory.objects.filter(user_id="alice").values_list("content", flat=True))
    assert "Emma Chen" in left and "sailing" not in left
    assert Entity.objects.live().filter(user_id="alice", canonical_name="Emma Chen").exists()


def test_mentions_and_relations_learned_in_her_sessions_go_and_nothing_points_at_her(db):
    ingest("My sister Emma Larsson and my friend Tom Becker went hiking together.", session_id="s1")
    ingest("Tom Becker is planning to run the Berlin marathon next month.", session_id="s2")
    tom = Entity.objects.live().get(user_id="alice", normalized_name="tom becker")
    assert EntityMention.objects.filter(entity=tom, session_id="s1").exists()

    forget(emma())

    assert not EntityMention.objects.filter(user_id="alice", session_id="s1").exists()
    assert EntityMention.objects.filter(entity=tom, session_id="s2").exists()
    assert not Relation.objects.filter(user_id="alice", session_id="s1").exists()
    assert not Entity.objects.filter(user_id="alice", deleted_at__isnull=False).exists(), \
        "a relation learned in her own conversation does not keep a tombstone alive"


def test_the_audit_reason_is_a_category_and_keeps_none_of_the_request(db):
    ingest("My friend Emma Larsson lives in Oslo with her dog Pixel.", session_id="s1")
    result = forget(emma(), reason="User asked: forget Emma Larsson (Oslo, dog Pixel)")
    assert AuditEvent.objects.get(pk=result["audit_event_id"]).reason == "user_request"
    ingest("My friend Ola Nordmann lives in Bergen.", session_id="s2")
    ola = Entity.objects.live().get(user_id="alice", normalized_name="ola nordmann")
    assert AuditEvent.objects.get(pk=forget(ola, reason="correction")["audit_event_id"]).reason == "correction"


FIRST = ["Ingrid", "Astrid", "Sigrid", "Maja", "Liv", "Karin", "Solveig", "Ragna"]
LAST = ["Haugen", "Lindqvist", "Strand", "Dahl", "Berntsen", "Aasen", "Moen", "Vik"]
TEMPLATES = [
    "{full} recommended a great bakery near the harbour.",
    "Yesterday I had lunch with {full} and we talked about her garden.",
    "{lower} mentioned she is starting a pottery class in March.",
    "Picked up concert tickets for {initial}, she loves jazz.",
    "Dinner at {last}'s place was lovely, the lamb stew was perfect.",
    "Reminder to myself: {first_upper} {last_upper} owes me a book.",
    "I think {full}'s new apartment is in the old town.",
]


@pytest.mark.parametrize("seed", range(4))
def test_random_names_in_random_places_leave_no_residue(db, seed):
    rng = random.Random(seed)
    first, last = rng.choice(FIRST), rng.choice(LAST)
    forms = {"full": f"{first} {last}", "lower": f"{first} {last}".lower(), "initial": f"{first} {last[0]}.",
             "last": last, "first_upper": first.upper(), "last_upper": last.upper()}
    ingest(f"My neighbour {first} {last} has two cats.", session_id="intro")
    for number, template in enumerate(rng.sample(TEMPLATES, 4)):
        text = template.format(**forms)
        if rng.random() < 0.5:
            remember_memory(user_id="alice", actor="alice", session_id="assistant", content=text)
        else:
            ingest(text, session_id=f"chat-{number}")
    ingest("My brother Nils loves fishing on Sundays.", session_id="other")
    person = Entity.objects.live().get(user_id="alice", normalized_name=f"{first} {last}".lower())

    forget(person)

    assert residue("alice", [last, f"{first} {last[0]}"]) == []
    assert Memory.objects.filter(user_id="alice", content__contains="Nils").exists()
