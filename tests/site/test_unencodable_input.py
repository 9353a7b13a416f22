"""A lone surrogate anywhere in a request body is a JSON 400 that repeats nothing it cannot encode (issue #26).

Every choice field of every JSON request body in the OpenAPI schema is tried (read from the schema, so a
new endpoint or field is covered without listing it here): its "not a valid choice" message used to repeat
the value, and rendering that surrogate failed with a 500. A few free strings and keys are tried too: the
API's parser refuses a surrogate in any string before a field sees it. Query parameters are not tried: a
query string cannot carry a lone surrogate (Django decodes it with replacement characters).
"""
import json

import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework import serializers

from recall_site.api_errors import json_exception_handler
from tests import factories
from tests.site.test_bad_input import nothing_written, post_json  # noqa: F401  (fixture)

SURROGATE = "\ud800"
SCHEMA = SchemaGenerator().get_schema(request=None, public=True)
COMPONENTS = SCHEMA["components"]["schemas"]


def _resolved(schema: dict) -> dict:
    while "$ref" in schema or ("allOf" in schema and len(schema["allOf"]) == 1):
        schema = COMPONENTS[schema["$ref"].split("/")[-1]] if "$ref" in schema else schema["allOf"][0]
    return schema


def _choice_paths(schema: dict, path: tuple = ()):
    """Paths (keys, 0 for an array's item) to every enum in a request body schema."""
    schema = _resolved(schema)
    if "enum" in schema:
        yield path
    if schema.get("type") == "array" and "items" in schema:
        yield from _choice_paths(schema["items"], (*path, 0))
    for name, child in schema.get("properties", {}).items():
        yield from _choice_paths(child, (*path, name))


def choice_fields() -> list[tuple[str, str, tuple]]:
    found = []
    for url, operations in SCHEMA["paths"].items():
        for method, operation in operations.items():
            body = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if body:
                found += [(method, url, path) for path in _choice_paths(body["schema"])]
    return found


CHOICE_FIELDS = choice_fields()


def body_with(path: tuple, value) -> dict:
    """A body acting for alice with `value` at `path` (lists and objects made on the way)."""
    body = {"user_id": "alice", "scope": {"user_id": "alice"}}
    holder = body
    for step, following in zip(path, (*path[1:], None)):
        child = value if following is None else ([] if following == 0 else {})
        if isinstance(holder, list):
            holder.append(child)
        else:
            holder[step] = holder.get(step, child) if following is not None else child
        holder = holder[-1] if isinstance(holder, list) else holder[step]
    return body


def assert_refused_without_the_value(response):
    assert response.status_code == 400, response.content
    text = response.content.decode("utf-8")  # it rendered
    body = json.loads(text)
    assert body["error"] == "invalid" and body["message"]
    assert SURROGATE not in json.dumps(body, ensure_ascii=False)
    return body


def test_the_schema_walk_finds_the_choice_fields():
    paths = {(url, path) for _method, url, path in CHOICE_FIELDS}
    assert ("/api/v1/search", ("filters", "domains", 0)) in paths
    assert ("/api/v1/ingest", ("messages", 0, "role")) in paths
    assert ("/api/v1/delete", ("filter", "types", 0)) in paths
    assert len(CHOICE_FIELDS) >= 20


@pytest.fixture
def a_memory(db):
    return factories.memory(content="prefers tea")


@pytest.mark.parametrize("method,url,path", CHOICE_FIELDS, ids=lambda v: "/".join(map(str, v))
                         if isinstance(v, tuple) else str(v))
def test_a_lone_surrogate_in_any_choice_field_is_a_400(alice_api, a_memory, nothing_written, method, url, path):
    url = url.replace("{memory_id}", str(a_memory.pk)) + "?user_id=alice"  # import reads its user id there
    body = body_with(path, SURROGATE)
    response = post_json(alice_api, url, body, method=method)
    refused = assert_refused_without_the_value(response)
    assert path[0] in refused["fields"], refused


@pytest.mark.parametrize("body", [
    {"user_id": "alice", "session_id": "s1", "content": "tea", "entities": ["Sa\ud800rah"]},
    {"user_id": "alice", "session_id": "s1", "content": "tea", SURROGATE: 1},
    {"user_id": "alice", "session_id": "s1", "content": "tea", "metadata": {"deep": [{"x\udfff": "y"}]}},
    ["not", "an", "object", SURROGATE],
    SURROGATE,
], ids=["list-item", "top-level-key", "nested-key", "array-body", "string-body"])
def test_a_lone_surrogate_in_any_string_or_key_is_a_400(alice_api, nothing_written, body):
    assert_refused_without_the_value(post_json(alice_api, "/api/v1/remember_memory", json.dumps(body)))


def test_deeply_nested_json_with_a_surrogate_is_still_a_400(alice_api, nothing_written):
    body = '{"user_id": "alice", "query": "x", "hints": ' + "[" * 300 + '"\\ud800"' + "]" * 300 + "}"
    assert_refused_without_the_value(post_json(alice_api, "/api/v1/search", body))


def test_an_error_quoting_input_escapes_what_cannot_be_encoded():
    response = json_exception_handler(serializers.ValidationError({"type": [f'"{SURROGATE}" is not a valid choice.']}),
                                      {})
    assert response.data["message"] == 'type: "\\ud800" is not a valid choice.'
    assert response.data["fields"] == {"type": ['"\\ud800" is not a valid choice.']}
