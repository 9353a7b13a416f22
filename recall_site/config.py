"""Load Recall's configuration: defaults.yaml, then RECALL_CONFIG, then environment.

Environment overrides take the form RECALL__<SECTION>__<KEY>=value (values are
parsed as YAML scalars, so `false`, `0.7` and `12` work). The legacy variable
PYPIBOT_SEMANTIC_CANARY_BYPASS=1 sets memory_semantic.startup_canary_bypass.
"""
import copy
import os
from pathlib import Path

import yaml
from django.core.exceptions import ImproperlyConfigured

DEFAULTS_PATH = Path(__file__).with_name("defaults.yaml")
ENV_PREFIX = "RECALL__"
# Sections whose keys are all caps on input (at least 1).
POSITIVE_SECTIONS = ("input_limits",)


def load_config(environ=None) -> dict:
    environ = os.environ if environ is None else environ
    config = yaml.safe_load(DEFAULTS_PATH.read_text())
    override_path = environ.get("RECALL_CONFIG")
    if override_path:
        path = Path(override_path)
        if not path.is_file():
            raise ImproperlyConfigured(f"RECALL_CONFIG points to {path}, which is not a file")
        merge_config(config, yaml.safe_load(path.read_text()) or {}, source=str(path))
    merge_config(config, _environment_overrides(environ), source="environment")
    if environ.get("PYPIBOT_SEMANTIC_CANARY_BYPASS") == "1":
        config["memory_semantic"]["startup_canary_bypass"] = True
    _check_positive(config)
    _check_choices(config)
    return config


# Keys that name one of a few things (their registries live in the apps: ingest/pipeline/extract.py).
CHOICES = {("memory", "extractor"): ("rules", "llm")}


def _check_choices(config: dict) -> None:
    for (section, key), allowed in CHOICES.items():
        if config[section][key] not in allowed:
            raise ImproperlyConfigured(
                f"config key '{section}.{key}' must be one of {', '.join(allowed)}, got {config[section][key]!r}")


def _check_positive(config: dict) -> None:
    """Every key of these sections is a cap: 0 or less would refuse every request."""
    for section in POSITIVE_SECTIONS:
        for key, value in config[section].items():
            if value < 1:
                raise ImproperlyConfigured(f"config key '{section}.{key}' must be at least 1, got {value!r}")


def merge_config(config: dict, overrides: dict, *, source: str, prefix: str = "") -> dict:
    """Merge `overrides` into `config` in place, rejecting unknown keys and wrong types."""
    if not isinstance(overrides, dict):
        raise ImproperlyConfigured(f"{source}: {prefix or 'config'} must be a mapping")
    for key, value in overrides.items():
        dotted = f"{prefix}{key}"
        if key not in config:
            raise ImproperlyConfigured(f"{source}: unknown config key '{dotted}'")
        current = config[key]
        if isinstance(current, dict):
            merge_config(current, value, source=source, prefix=f"{dotted}.")
        else:
            config[key] = _checked_value(current, value, dotted, source)
    return config


def _checked_value(current, value, dotted, source):
    if isinstance(current, bool):
        if isinstance(value, bool):
            return value
    elif isinstance(current, float):
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
    elif isinstance(current, int):
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    elif isinstance(current, str):
        if isinstance(value, str):
            return value
    expected = type(current).__name__
    raise ImproperlyConfigured(
        f"{source}: config key '{dotted}' must be {expected}, got {value!r}"
    )


def _environment_overrides(environ) -> dict:
    overrides: dict = {}
    for name, raw in environ.items():
        if not name.startswith(ENV_PREFIX):
            continue
        parts = [part.lower() for part in name[len(ENV_PREFIX):].split("__")]
        node = overrides
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = yaml.safe_load(raw) if raw != "" else ""
    return overrides


def recall_setting(dotted: str):
    """Read one config value, e.g. recall_setting("memory_retrieval.max_memories")."""
    from django.conf import settings

    node = settings.RECALL
    for part in dotted.split("."):
        node = node[part]
    return node


def with_overrides(config: dict, overrides: dict) -> dict:
    """Return a copy of `config` with `overrides` merged (used by tests and tools)."""
    return merge_config(copy.deepcopy(config), overrides, source="override")
