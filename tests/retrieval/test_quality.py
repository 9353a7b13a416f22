"""Retrieval quality on a hand-written world: recall@5/@10 and gating violations over 40+ queries.

A gating violation is a must-not memory in the results, a sensitive memory below
the sensitive confidence floor, or a memory outside the domains the gate allowed.
"""
from datetime import timedelta
from pathlib import Path

import pytest
import yaml
from django.utils import timezone

from entities.services import alias_add, entity_create, relation_upsert, self_entity
from memories.tasks import embed_pending_memories
from search.retrieval import search_memories
from tests import factories

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "retrieval" / "quality.yaml"
RECALL_AT_5_FLOOR = 0.90
RECALL_AT_10_FLOOR = 0.95


def load_world(spec, user_id="alice") -> dict[str, int]:
    entities = {"me": self_entity(user_id)}
    for item in spec["entities"]:
        entity = entity_create(user_id=user_id, name=item["name"], kind=item.get("kind", "person"))
        for alias in item.get("aliases", []):
            alias_add(entity=entity, alias=alias)
        entities[item["name"]] = entity
    for subject, predicate, obj in spec["relations"]:
        relation_upsert(subject=entities[subject], predicate=predicate, object=entities[obj])
    ids = {}
    for key, fields in spec["memories"].items():
        fields = dict(fields)
        linked = [entities[name] for name in fields.pop("entities", [])]
        age = fields.pop("age_days", 0)
        if age:
            fields["created_at"] = fields["last_reinforced_at"] = timezone.now() - timedelta(days=age)
        content = fields.pop("content")
        ids[key] = factories.memory(user_id, content, type=fields.pop("type", "fact"),
                                    domain=fields.pop("domain", "personal"), entities=linked, **fields).pk
    embed_pending_memories()
    return ids


@pytest.mark.django_db
def test_recall_and_gating_over_the_quality_fixture(capsys):
    spec = yaml.safe_load(FIXTURE.read_text())
    assert len(spec["queries"]) >= 40
    ids = load_world(spec)
    key_by_id = {pk: key for key, pk in ids.items()}
    recall5, recall10, violations, misses = [], [], [], []
    for case in spec["queries"]:
        hints = case.get("hints", {})
        outcome = search_memories(user_id="alice", query=case["q"], entities=hints.get("entities", ()),
                                  hop=hints.get("hop"), limit=10)
        ranked = [key_by_id[hit.memory.pk] for hit in outcome.hits]
        if case["must"]:
            recall5.append(len(set(case["must"]) & set(ranked[:5])) / len(case["must"]))
            recall10.append(len(set(case["must"]) & set(ranked[:10])) / len(case["must"]))
            if set(case["must"]) - set(ranked[:5]):
                misses.append(f"{case['q']!r}: wanted {case['must']}, got {ranked[:5]}")
        for hit in outcome.hits:
            memory = hit.memory
            if (key_by_id[memory.pk] in case.get("must_not", []) or memory.domain not in outcome.domains
                    or (memory.sensitive and memory.confidence < 0.8)):
                violations.append(f"{case['q']!r} returned {key_by_id[memory.pk]}")
    at5, at10 = sum(recall5) / len(recall5), sum(recall10) / len(recall10)
    with capsys.disabled():
        print(f"\nretrieval quality: {len(spec['queries'])} queries, recall@5 {at5:.3f}, recall@10 {at10:.3f},"
              f" gating violations {len(violations)}")
        for miss in misses:
            print("  miss@5:", miss)
    assert violations == []
    assert at5 >= RECALL_AT_5_FLOOR and at10 >= RECALL_AT_10_FLOOR
