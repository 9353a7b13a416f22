"""Input fields shared by the API serializers: caps read from Recall's config, and free-form JSON.

DRF builds a serializer's fields anew for every serializer instance (it deep-copies
the declared ones, which calls `__init__` again), so a cap read in `__init__` is the
configured one on every request and in the OpenAPI schema (`maxLength`, `maximum`, `maxItems`).
"""
from rest_framework import serializers

from recall_site.config import recall_setting
from recall_site.input_checks import json_problem

CONTENT_LIMIT = "input_limits.max_content_chars"


class ConfiguredLimits:
    """Field bounds named by config keys: `limits={"max_length": "input_limits.max_content_chars"}`."""

    def __init__(self, *, limits: dict[str, str], **kwargs):
        super().__init__(**kwargs, **{name: recall_setting(key) for name, key in limits.items()})


class ConfiguredCharField(ConfiguredLimits, serializers.CharField):
    pass


class ConfiguredIntegerField(ConfiguredLimits, serializers.IntegerField):
    pass


class ConfiguredListField(ConfiguredLimits, serializers.ListField):
    pass


def content_field(**kwargs) -> ConfiguredCharField:
    """The text of a memory or message: one limit for ingest, remember_memory and PATCH."""
    return ConfiguredCharField(limits={"max_length": CONTENT_LIMIT}, **kwargs)


class JSONObjectField(serializers.DictField):
    """A free-form JSON object (profile preferences, favorites) that PostgreSQL's jsonb can store:
    no NUL or lone surrogate in any key or string, finite numbers, within the configured size and depth."""

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        problem = json_problem(value, max_bytes=recall_setting("input_limits.max_profile_json_bytes"),
                               max_depth=recall_setting("input_limits.max_profile_json_depth"))
        if problem:
            raise serializers.ValidationError(problem)
        return value


class StrictBooleanField(serializers.BooleanField):
    """A JSON true or false and nothing else: 0, 1, "true", "no" or null are a 400. For the switches of
    destructive endpoints (`dry_run`, `hard`), where a value that merely looks false ran a real delete."""

    default_error_messages = {"invalid": "Must be a JSON boolean: true or false."}

    def to_internal_value(self, data):
        if data is True or data is False:
            return data
        self.fail("invalid")
