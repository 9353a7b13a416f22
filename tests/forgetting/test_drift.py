"""Drift: flagged only when the centroid moved > 0.4 cosine distance AND relation Jaccard < 0.5."""
import math

import numpy as np
import pytest

from entities.models import Entity, EntityReview, Relation
from memories.models import Memory
from memories.review.drift import cosine_distance, detect_drift, drift_rebaseline, entity_drift_check, has_drifted
from tests import factories


def unit_at_distance(distance: float) -> list[float]:
    """A unit vector whose cosine distance from e0 is `distance`."""
    vector = np.zeros(384)
    vector[0], vector[1] = 1 - distance, math.sqrt(1 - (1 - distance) ** 2)
    return vector.tolist()


def embed(memory, vector):
    Memory.objects.filter(pk=memory.pk).update(embedding=vector, embedding_status="ready")


@pytest.fixture
def alex(db):
    """Alex with one memory at e0 and two relations, baselined by a first drift check."""
    alex = factories.person(name="Alex Rivera")
    alex.memory = factories.memory(content="Alex works at Acme", type="fact", entities=[alex])
    embed(alex.memory, unit_at_distance(0.0))
    alex.neighbours = [factories.person(name=name, kind="org") for name in ("Acme", "Globex", "Initech", "Umbrella")]
    for org in alex.neighbours[:2]:
        factories.relation(alex, "works_with", org)
    assert entity_drift_check(alex) is False
    alex.refresh_from_db()
    assert len(alex.relations_at_creation) == 2 and alex.centroid_at_creation is not None
    return alex


def relate_to(entity, neighbours):
    Relation.objects.filter(subject=entity).delete()
    for org in neighbours:
        factories.relation(entity, "works_with", org)


@pytest.mark.parametrize("distance,jaccard,drifted", [
    (0.41, 0.49, True), (0.39, 0.49, False), (0.41, 0.50, False), (0.39, 0.51, False),
])
def test_both_thresholds_are_required(db, distance, jaccard, drifted):
    assert has_drifted(distance, jaccard) is drifted


def test_cosine_distance_of_the_constructed_vectors():
    assert cosine_distance(unit_at_distance(0.0), unit_at_distance(0.45)) == pytest.approx(0.45)
    assert cosine_distance([1, 0], [0, 1]) == pytest.approx(1.0)


def test_moved_centroid_and_new_relations_flag_the_entity_for_review(alex):
    embed(alex.memory, unit_at_distance(0.45))
    relate_to(alex, alex.neighbours[2:])  # Jaccard 0
    assert entity_drift_check(alex) is True
    alex.refresh_from_db()
    assert alex.drift_flagged and alex.drift_flagged_at
    assert list(EntityReview.objects.values_list("kind", "entity_id")) == [("drift", alex.pk)]


def test_centroid_moved_just_under_the_threshold_is_not_drift(alex):
    embed(alex.memory, unit_at_distance(0.35))
    relate_to(alex, alex.neighbours[2:])
    assert entity_drift_check(alex) is False
    assert not Entity.objects.get(pk=alex.pk).drift_flagged


def test_relations_at_exactly_half_jaccard_are_not_drift(alex):
    embed(alex.memory, unit_at_distance(0.45))
    relate_to(alex, alex.neighbours)  # {a, b} vs {a, b, c, d}: Jaccard 0.5
    assert entity_drift_check(alex) is False


def test_relations_just_under_half_jaccard_with_a_moved_centroid_are_drift(alex):
    embed(alex.memory, unit_at_distance(0.45))
    extra = factories.person(name="Hooli", kind="org")
    relate_to(alex, alex.neighbours + [extra])  # {a, b} vs {a, b, c, d, e}: Jaccard 0.4
    assert entity_drift_check(alex) is True


def test_same_relations_with_a_moved_centroid_are_not_drift(alex):
    embed(alex.memory, unit_at_distance(0.9))
    assert entity_drift_check(alex) is False


def test_detect_drift_twice_flags_once_and_rebaseline_clears_it(alex):
    embed(alex.memory, unit_at_distance(0.6))
    relate_to(alex, alex.neighbours[2:])
    assert detect_drift() == 1
    assert detect_drift() == 0
    assert EntityReview.objects.filter(kind="drift").count() == 1
    alex = drift_rebaseline(entity=Entity.objects.get(pk=alex.pk), actor="alice")
    assert not alex.drift_flagged
    assert EntityReview.objects.get(kind="drift").resolved_at is not None
    assert entity_drift_check(alex) is False
