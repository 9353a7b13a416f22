"""Bad input is a JSON 400 that writes nothing, never a 500 (issue #13: 20 cases from an adversarial run).

PostgreSQL refuses NUL in text and jsonb, UTF-8 cannot hold a lone surrogate, Python's
json gives up near 1,000 levels of nesting: each of these used to escape as a 500.
"""
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from audit.models import AuditEvent
from entities.models import Alias, Entity, Relation
from memories.models import Memory, UserProfile
from recall_site.config import recall_setting
from tests import factories

TABLES = (Memory, Entity, Alias, Relation, UserProfile, AuditEvent)


def post_json(api, path, body, method="post"):
    """Send `body` as JSON text; json.dumps writes NUL and lone surrogates as \\u escapes, as a client would."""
    return getattr(api, method)(path, data=body if isinstance(body, str) else json.dumps(body),
                                content_type="application/json")


def row_counts():
    return {model.__name__: model.objects.count() for model in TABLES}


def assert_bad_input(response, field=None):
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["error"] in ("invalid", "parse_error") and body["message"], body
    if field:
        assert field in body["fields"], body


@pytest.fixture
def nothing_written(db):
    """Asserts, after the test, that no table gained or lost a row."""
    before = row_counts()
    yield
    assert row_counts() == before


# ------------------------------------------------------------------ JSON nesting and profile JSON

@pytest.mark.parametrize("path", ["/api/v1/update_user_profile", "/api/v1/ingest", "/api/v1/search"])
def test_json_nested_1000_deep_is_a_400(alice_api, nothing_written, path):
    deep = '{"user_id": "alice", "preferences": ' + "[" * 1000 + "]" * 1000 + "}"
    response = post_json(alice_api, path, deep)
    assert_bad_input(response)
    assert "nested too deeply" in response.json()["message"]


@pytest.mark.parametrize("profile", [
    {"preferences": {"sea\x00t": "window"}},
    {"favorites": {"coffee": "flat\x00white"}},
    {"preferences": {"\ud800": "window"}},
    {"favorites": {"coffee": ["fine", "\udfff"]}},
    {"favorites": {"nested": {"deeper": "\x00"}}},
    {"name": "Ali\x00ce"},
])
def test_nul_or_a_lone_surrogate_in_the_profile_is_a_400(alice_api, nothing_written, profile):
    response = post_json(alice_api, "/api/v1/update_user_profile", {"user_id": "alice", **profile})
    assert_bad_input(response, field=next(iter(profile)))


def test_profile_json_over_the_size_or_depth_cap_is_a_400(alice_api, nothing_written):
    too_big = {"notes": "x" * 16384}
    too_deep = {"a": {"b": {"c": {"d": {"e": {"f": "six objects deep"}}}}}}
    for favorites in (too_big, too_deep):
        response = post_json(alice_api, "/api/v1/update_user_profile", {"user_id": "alice", "favorites": favorites})
        assert_bad_input(response, field="favorites")


def test_profile_json_within_the_caps_is_kept(alice_api):
    favorites = {"drinks": {"morning": ["flat white", "green tea"]}, "seat": "window", "pi": 3.14}
    response = post_json(alice_api, "/api/v1/update_user_profile", {"user_id": "alice", "favorites": favorites})
    assert response.status_code == 200 and response.json()["favorites"] == favorites


# ------------------------------------------------------------------ NUL anywhere

NUL_BODIES = [
    ("/api/v1/remember_memory", {"session_id": "s1", "content": "likes tea\x00"}),
    ("/api/v1/remember_memory", {"session_id": "s\x001", "content": "likes tea"}),
    ("/api/v1/remember_memory", {"session_id": "s1", "content": "likes tea", "entities": ["Sa\x00rah"]}),
    ("/api/v1/ingest", {"session_id": "s1", "messages": [{"role": "user", "content": "I moved to Oslo\x00"}]}),
    ("/api/v1/ingest", {"session_id": "s1", "messages": [{"role": "user", "content": "hi", "name": "Em\x00ma"}]}),
    ("/api/v1/search", {"query": "tea\x00"}),
    ("/api/v1/turn", {"session_id": "s1", "message": "what do I drink in the morning\x00"}),
    ("/api/v1/entities/resolve", {"mention": "Sa\x00rah"}),
    ("/api/v1/relations", {"subject": "ent_000000000000", "predicate": "friend\x00_of", "object": "ent_000000000001"}),
    ("/api/v1/delete", {"filter": {"source_session": "s\x001"}, "dry_run": True}),
    ("/api/v1/update_user_profile", {"user_id": "ali\x00ce"}),
]


@pytest.mark.parametrize("path,body", NUL_BODIES)
def test_nul_in_any_string_field_is_a_400(alice_api, nothing_written, path, body):
    assert_bad_input(post_json(alice_api, path, {"user_id": "alice", **body}))


@pytest.mark.parametrize("path", [
    "/api/v1/profile?user_id=ali%00ce", "/api/v1/hydrate?user_id=ali%00ce", "/api/v1/metrics?user_id=ali%00ce",
    "/api/v1/memories?user_id=alice&session_id=s%001", "/api/v1/entities?user_id=alice&q=Sa%00rah",
    "/api/v1/audit?user_id=alice&action=forget%00", "/api/v1/relations?user_id=alice&predicate=a%00b",
])
def test_nul_in_a_query_parameter_is_a_400(alice_api, nothing_written, path):
    assert_bad_input(alice_api.get(path))


def test_a_malformed_entity_id_in_the_url_is_a_json_404(alice_api, alice_client):
    sarah = factories.person("alice", "Sarah Chen")
    for path in ("/api/v1/entities/ent_%00abc", f"/api/v1/entities/{sarah.public_id}%00/graph",
                 "/api/v1/entities/" + "e" * 300, f"/api/v1/entities/{sarah.public_id[:-1]}X/aliases"):
        response = alice_api.get(path, {"user_id": "alice"})
        assert (response.status_code, response.json()["error"]) == (404, "not_found"), path
    assert alice_client.get("/entities/ent_%00abc/").status_code == 404
    assert alice_api.get(f"/api/v1/entities/{sarah.public_id}", {"user_id": "alice"}).status_code == 200


# ------------------------------------------------------------------ caps

@pytest.mark.parametrize("path", ["/api/v1/memories", "/api/v1/entities", "/api/v1/relations", "/api/v1/audit"])
def test_every_list_refuses_a_limit_or_offset_it_cannot_serve(alice_api, path):
    for params, field in (({"limit": 201}, "limit"), ({"limit": 0}, "limit"), ({"limit": "ten"}, "limit"),
                          ({"offset": -1}, "offset"), ({"offset": "1e30"}, "offset")):
        assert_bad_input(alice_api.get(path, {"user_id": "alice", **params}), field=field)
    page = alice_api.get(path, {"user_id": "alice", "limit": 200, "offset": 10**30}).json()
    assert set(page) == {"count", "next", "previous", "results"}


def test_the_page_limit_is_configurable(alice_api, recall_config):
    for n in range(3):
        factories.memory(content=f"likes tea number {n}")
    recall_config({"input_limits": {"max_page_limit": 2}})
    assert len(alice_api.get("/api/v1/memories", {"user_id": "alice"}).json()["results"]) == 2
    assert_bad_input(alice_api.get("/api/v1/memories", {"user_id": "alice", "limit": 3}), field="limit")


def test_remember_links_at_most_50_entities(alice_api, nothing_written):
    body = {"user_id": "alice", "session_id": "s1", "content": "a big party",
            "entities": [f"Guest {n}" for n in range(51)]}
    assert_bad_input(post_json(alice_api, "/api/v1/remember_memory", body), field="entities")


def test_one_content_limit_for_remember_ingest_and_patch(alice_api, recall_config):
    memory = factories.memory(content="prefers tea")
    before = row_counts()
    too_long = "x" * 8001
    assert_bad_input(post_json(alice_api, "/api/v1/remember_memory",
                               {"user_id": "alice", "session_id": "s1", "content": too_long}), field="content")
    response = post_json(alice_api, "/api/v1/ingest", {"user_id": "alice", "session_id": "s1",
                                                       "messages": [{"role": "user", "content": too_long}]})
    assert_bad_input(response, field="messages")
    assert_bad_input(post_json(alice_api, f"/api/v1/memories/{memory.pk}", {"content": too_long}, method="patch"),
                     field="content")
    assert row_counts() == before
    memory.refresh_from_db()
    assert memory.content == "prefers tea"
    recall_config({"input_limits": {"max_content_chars": 20}})
    assert_bad_input(post_json(alice_api, f"/api/v1/memories/{memory.pk}", {"content": "x" * 21}, method="patch"),
                     field="content")


def test_valid_to_may_not_be_before_valid_from(alice_api):
    memory = factories.memory(content="trip to Berlin", type="event", valid_from="2026-12-01T00:00:00Z")
    path = f"/api/v1/memories/{memory.pk}"
    both = {"valid_from": "2026-12-10T00:00:00Z", "valid_to": "2026-12-09T00:00:00Z"}
    assert_bad_input(post_json(alice_api, path, both, method="patch"), field="valid_to")
    assert_bad_input(post_json(alice_api, path, {"valid_to": "2026-11-30T00:00:00Z"}, method="patch"),
                     field="valid_to")
    memory.refresh_from_db()
    assert memory.valid_to is None and memory.valid_from.day == 1
    ok = post_json(alice_api, path, {"valid_to": "2026-12-03T00:00:00Z"}, method="patch")
    assert ok.status_code == 200 and ok.json()["valid_to"].startswith("2026-12-03")


def test_a_hop_above_the_maximum_is_a_400_in_search_as_in_the_graph(alice_api):
    sarah = factories.person("alice", "Sarah Chen")
    search = post_json(alice_api, "/api/v1/search", {"query": "Sarah", "scope": {"user_id": "alice"},
                                                     "hints": {"hop": 4}})
    assert_bad_input(search, field="hints")
    graph = alice_api.get(f"/api/v1/entities/{sarah.public_id}/graph", {"user_id": "alice", "hop": 4})
    assert_bad_input(graph, field="hop")
    assert post_json(alice_api, "/api/v1/search", {"query": "Sarah", "scope": {"user_id": "alice"},
                                                   "hints": {"hop": 3}}).status_code == 200


def test_the_schema_states_the_hop_maximum_that_validation_holds(alice_api):
    """3, as the README says: the same in the OpenAPI schema, the config and the 400 above."""
    schema = alice_api.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    search_hop = schema["components"]["schemas"]["HintsRequest"]["properties"]["hop"]["maximum"]
    graph = schema["paths"]["/api/v1/entities/{public_id}/graph"]["get"]["parameters"]
    graph_hop = next(parameter["schema"]["maximum"] for parameter in graph if parameter["name"] == "hop")
    assert search_hop == recall_setting("memory_retrieval.max_hop") == 3
    assert graph_hop == recall_setting("entities.graph_max_hop") == 3


# ------------------------------------------------------------------ dates and contacts

@pytest.mark.parametrize("timestamp,content", [
    ("9999-12-31T10:00:00Z", "I have lunch with Sarah next month"),
    ("9999-12-31T23:00:00Z", "dinner with Tom tomorrow at 7pm"),
    ("9999-06-01T10:00:00Z", "I'm moving to Oslo next year"),
    ("0001-01-01T00:00:00Z", "I had lunch with Sarah yesterday"),
])
def test_a_relative_date_beyond_what_a_datetime_holds_is_left_unresolved(alice_api, timestamp, content):
    """Any date-time the schema allows is accepted; only the date it would resolve to is dropped."""
    body = {"user_id": "alice", "session_id": "s1", "source": "import",
            "messages": [{"role": "user", "content": content, "timestamp": timestamp}]}
    response = post_json(alice_api, "/api/v1/ingest", body)
    assert response.status_code == 200, response.content


def vcard(name: str) -> SimpleUploadedFile:
    text = "".join(f"BEGIN:VCARD\r\nVERSION:3.0\r\nFN:{fn}\r\nEND:VCARD\r\n" for fn in ("Ann Berg", name))
    return SimpleUploadedFile("people.vcf", text.encode(), content_type="text/vcard")


def csv_file(name: str) -> SimpleUploadedFile:
    return SimpleUploadedFile("people.csv", f"Name,Nickname\r\nAnn Berg,Annie\r\n{name},\r\n".encode(),
                              content_type="text/csv")


@pytest.mark.parametrize("upload", [vcard("Bo\x00b Lund"), vcard("B" * 201), csv_file("Bo\x00b Lund"),
                                    csv_file("B" * 201)], ids=["vcf-nul", "vcf-long", "csv-nul", "csv-long"])
def test_contact_names_with_nul_or_longer_than_the_column_import_nothing(alice_api, nothing_written, upload):
    response = alice_api.post("/api/v1/contacts/import", {"user_id": "alice", "file": upload}, format="multipart")
    assert_bad_input(response, field="file")
    assert "card 2" in response.json()["message"].lower() or "row" in response.json()["message"].lower()
