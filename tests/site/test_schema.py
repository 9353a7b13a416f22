"""The OpenAPI schema tells the truth: schemathesis runs a few generated requests against every operation.

The schema comes from the app's own /api/schema/; requests go straight into the WSGI app,
in this process and this test's transaction. Every request acts for `alice` (or `default`, when
it names no user id), user ids the token is granted, so /profile, /delete and the rest get past the
grant check, and valid ids in paths name her real memory, entity and relation. Valid and invalid requests are generated; each
response must not be a server error and must match what the schema documents (status code,
content type, headers, body), and a request the schema forbids must be refused.

Not checked: that every request the schema allows is accepted. Some rules are beyond an OpenAPI
schema (text of only whitespace, a deletion with no criteria, a file that is not a vCard,
restoring a memory that has not expired); those answer the documented 400 body.

Generation is derandomized, so the suite sees the same requests every run;
RECALL_SCHEMA_EXAMPLES=60 (default 5 per operation and mode) with RECALL_SCHEMA_RANDOM=1 runs a
deeper, random search.
"""
import os

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from schemathesis.config import SchemathesisConfig
from werkzeug.test import Client

from access.scope import DEFAULT_USER_ID
from ingest.jobs import ingest_job_run
from memories.models import IngestJob
from tests import factories
from tests.conftest import make_account

USER_ID = "alice"
EXAMPLES = int(os.environ.get("RECALL_SCHEMA_EXAMPLES", "5"))
DETERMINISTIC = os.environ.get("RECALL_SCHEMA_RANDOM") != "1"
CONFIG = SchemathesisConfig.from_dict({
    "parameters": {"query.user_id": USER_ID},
    # NUL and lone surrogates are refused on purpose (a 400, tests/site/test_bad_input.py), though a JSON
    # Schema string allows them: generated strings leave them out.
    "generation": {"mode": "all", "max-examples": EXAMPLES, "deterministic": DETERMINISTIC,
                   "allow-x00": False, "codec": "utf-8"},
    "phases": {"coverage": {"enabled": False}, "stateful": {"enabled": False}},
    # Refusing a request as too large (413) or its URI as too long (414) is rejecting it too.
    "checks": {"positive_data_acceptance": {"enabled": False},
               "negative_data_rejection": {"expected-statuses": [400, 401, 403, 404, 405, 406, 409, 413, 414,
                                                                 415, 422, 428, 429, "5xx"]}},
})
# Django's WSGI handler, not recall_site.wsgi: that one starts the model warm-up thread, and a module
# parsed in that thread while pytest rewrites schemathesis' modules trips CPython 3.11's AST depth check.
application = get_wsgi_application()
schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application, config=CONFIG)


@pytest.fixture
def alice_world(db) -> dict:
    """Path ids that exist: generated requests reach a real memory, entity and relation of alice's."""
    sarah, alex = factories.person(USER_ID, "Sarah Chen"), factories.person(USER_ID, "Alex")
    return {"memory_id": factories.memory(USER_ID, "Sarah is moving to Oslo", entities=[(sarah, "mention")]).pk,
            "public_id": sarah.public_id, "relation_id": factories.relation(alex, "partner_of", sarah).pk}


@pytest.fixture
def token_header(db):
    """A token granted `alice` and `default` (what an omitted user_id means). Django's test client keeps
    request signals from closing the test's database connection; a bare WSGI call does not, so the
    signal is held off here too."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    account = make_account("schemathesis", user_ids=[USER_ID, DEFAULT_USER_ID])
    yield {"Authorization": f"Token {Token.objects.create(user=account).key}"}
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def act_for_alice(case, world: dict) -> None:
    """A well-formed user id in the body (top level or in `scope`) becomes the granted one; a malformed
    one, generated to be refused, stays. Query user ids are set by the config."""
    if case.meta and case.meta.generation.mode.is_positive:
        case.path_parameters.update({name: world[name] for name in case.path_parameters if name in world})
    body = case.body if isinstance(case.body, dict) else {}
    for holder in (body, body.get("scope")):
        if isinstance(holder, dict) and _well_formed(holder.get("user_id")):
            holder["user_id"] = USER_ID


def _well_formed(user_id) -> bool:
    return isinstance(user_id, str) and bool(user_id.strip()) and len(user_id) <= 128


@schema.parametrize()
@settings(deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_answers_as_documented(case, token_header, alice_world):
    act_for_alice(case, alice_world)
    case.call_and_validate(headers=token_header)


def test_answers_about_real_memories_match_the_schema(token_header, alice_world):
    """Generated requests rarely find anything; these do, so the hit, digest and trace bodies are checked too."""
    client = Client(application)
    sarah = alice_world["public_id"]
    requests = [
        ("POST", "/api/v1/ingest", {"user_id": USER_ID, "session_id": "s9", "messages": [
            {"role": "user", "content": "My sister Emma is moving to Bergen next month", "id": "m1"}]}),
        ("POST", "/api/v1/remember_memory", {"user_id": USER_ID, "session_id": "s9", "pinned": True,
                                             "content": "Prefers window seats", "entities": ["Sarah Chen"]}),
        ("POST", "/api/v1/search", {"query": "Where is Sarah moving?", "scope": {"user_id": USER_ID},
                                    "hints": {"entities": ["Sarah Chen"], "hop": 2}}),
        ("POST", "/api/v1/turn", {"user_id": USER_ID, "session_id": "s9", "message": "Is Sarah moving to Oslo?"}),
        ("GET", "/api/v1/hydrate?user_id=alice", None),
        ("GET", f"/api/v1/entities/{sarah}/graph?user_id=alice", None),
        ("GET", f"/api/v1/entities/{sarah}?user_id=alice", None),
        ("GET", "/api/v1/memories?user_id=alice&limit=1", None),
    ]
    bodies = {}
    for method, url, body in requests:
        response = client.open(url, method=method, headers=token_header, json=body)
        assert response.status_code in (200, 201), (url, response.get_data(as_text=True))
        schema[url.split("?")[0].replace(sarah, "{public_id}")][method].validate_response(response)
        bodies[url] = response.get_json()
    assert bodies["/api/v1/search"]["results"] and bodies["/api/v1/turn"]["memories"]
    assert bodies["/api/v1/hydrate?user_id=alice"]["memories"] and bodies[requests[5][1]]["edges"]


def test_a_background_ingest_answers_as_documented_queued_and_done(token_header):
    client = Client(application)
    queued = client.open("/api/v1/ingest", method="POST", headers=token_header, json={
        "user_id": USER_ID, "session_id": "s9", "wait": False,
        "messages": [{"role": "user", "content": "My sister Emma is moving to Bergen next month", "id": "m1"}]})
    assert queued.status_code == 202, queued.get_data(as_text=True)
    schema["/api/v1/ingest"]["POST"].validate_response(queued)
    status_url = queued.get_json()["status_url"]
    for expected in ("queued", "done"):
        answer = client.open(status_url, method="GET", headers=token_header)
        assert answer.get_json()["status"] == expected
        schema["/api/v1/ingest/{job_id}"]["GET"].validate_response(answer)
        ingest_job_run(IngestJob.objects.get().pk)
    assert answer.get_json()["result"]["messages"][0]["outcome"] != "rejected"
