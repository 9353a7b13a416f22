"""Configuration: defaults from the seeds, overrides by file and environment, loud failures."""
import pytest
from django.core.exceptions import ImproperlyConfigured

from recall_site.config import load_config


def test_defaults_carry_the_seed_constants():
    config = load_config({})
    assert config["memory"]["relevance_threshold"] == 0.55
    assert config["memory_semantic"]["background_embedding_enabled"] is True
    assert config["memory_semantic"]["inline_embedding_on_write_when_background_disabled"] is False
    assert config["memory_semantic"]["startup_canary_timeout_ms"] == 120
    assert config["decay"]["half_life_days"] == {"preference": 90, "event": 30, "fact": 180, "entity": 365, "relation": 180}
    assert config["gating"]["sensitive_min_confidence"] == 0.80


def test_file_then_environment_override(tmp_path):
    override = tmp_path / "recall.yaml"
    override.write_text("memory_semantic:\n  enabled: false\nmemory_retrieval:\n  max_memories: 5\n")
    config = load_config({"RECALL_CONFIG": str(override), "RECALL__MEMORY_RETRIEVAL__MAX_MEMORIES": "7"})
    assert config["memory_semantic"]["enabled"] is False
    assert config["memory_retrieval"]["max_memories"] == 7


def test_canary_bypass_environment_variable():
    assert load_config({"PYPIBOT_SEMANTIC_CANARY_BYPASS": "1"})["memory_semantic"]["startup_canary_bypass"] is True


def test_unknown_key_fails_with_its_name(tmp_path):
    override = tmp_path / "recall.yaml"
    override.write_text("memory_semantic:\n  enabeld: false\n")
    with pytest.raises(ImproperlyConfigured, match="unknown config key 'memory_semantic.enabeld'"):
        load_config({"RECALL_CONFIG": str(override)})


@pytest.mark.parametrize("raw", ["many", "2.5", "true"])
def test_wrong_type_fails(raw):
    with pytest.raises(ImproperlyConfigured, match="memory_retrieval.max_memories' must be int"):
        load_config({"RECALL__MEMORY_RETRIEVAL__MAX_MEMORIES": raw})


def test_missing_config_file_fails():
    with pytest.raises(ImproperlyConfigured, match="not a file"):
        load_config({"RECALL_CONFIG": "/nonexistent/recall.yaml"})


def test_an_input_cap_below_one_fails():
    with pytest.raises(ImproperlyConfigured, match="'input_limits.max_page_limit' must be at least 1, got 0"):
        load_config({"RECALL__INPUT_LIMITS__MAX_PAGE_LIMIT": "0"})


def test_an_unknown_extractor_stops_start_up():
    with pytest.raises(ImproperlyConfigured, match="memory.extractor"):
        load_config({"RECALL__MEMORY__EXTRACTOR": "magic"})
