"""Metrics page: each metric with its current value, target and a 12-week chart."""
from entities.models import EntityMention, UnresolvedReference
from tests import factories


def test_metrics_page_draws_a_chart_per_metric(alice_client):
    sarah = factories.person("alice", "Sarah Chen")
    EntityMention.objects.create(user_id="alice", entity=sarah, session_id="s1")
    UnresolvedReference.objects.create(user_id="alice", session_id="s1", mention="someone")
    page = alice_client.get("/metrics/").content.decode()
    for key in ("entity_coverage", "avg_memories_per_regular_entity", "entities_created", "hard_delete_requests",
                "preference_supersession_rate", "unresolved_reference_rate"):
        assert f'id="metric-{key}"' in page
    assert page.count("<svg class=\"chart\"") == 6
    assert "Unresolved-reference rate" in page and "50.0 %" in page and "level-alert" in page
    assert "polyline" in page and "threshold-alert" in page


def test_metrics_are_per_user(alice_client, bob):
    factories.person("bob", "Carol")
    page = alice_client.get("/metrics/").content.decode()
    assert 'id="metric-entities_created"' in page
    assert '<p class="metric-value">0</p>' in page
