"""The streamable HTTP transport at /mcp, through recall_site.asgi's router, in process: the SDK's
client over an httpx2 ASGI transport. Same API tokens and user-id grants as the REST API."""
from contextlib import asynccontextmanager

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from rest_framework.authtoken.models import Token

from memories.models import Memory
from recall_site.asgi import asgi_application
from tests.assistants.conftest import close_tool_connections
from tests.assistants.round_trip import CONTENT, check_tools, remember_search_forget

pytestmark = pytest.mark.django_db(transaction=True)
BASE = "http://testserver"


@asynccontextmanager
async def serving():
    """A fresh router (Django + the MCP app), with the MCP app's lifespan running, and an HTTP client."""
    app = asgi_application()
    async with app.mcp_app.router.lifespan_context(app.mcp_app):
        async with httpx2.AsyncClient(transport=httpx2.ASGITransport(app=app), base_url=BASE) as http:
            yield http
    await close_tool_connections()


@asynccontextmanager
async def mcp_client(http, token: str, path="/mcp"):
    http.headers["Authorization"] = f"Token {token}"
    async with Client(streamable_http_client(BASE + path, http_client=http)) as client:
        yield client


def run(scenario):
    anyio.run(scenario)


def token_of(account) -> str:
    return Token.objects.get_or_create(user=account)[0].key


def test_tools_and_round_trip_over_http(alice):
    token = token_of(alice)

    async def scenario():
        async with serving() as http, mcp_client(http, token) as client:
            await check_tools(client)
            await remember_search_forget(client, user_id="alice")
            assert (await http.get("/api/v1/health")).json() == {"status": "ok"}  # the rest is Django

    run(scenario)


def test_user_id_defaults_to_the_endpoints_query(alice):
    token = token_of(alice)

    async def scenario():
        async with serving() as http, mcp_client(http, token, path="/mcp?user_id=alice") as client:
            await remember_search_forget(client)

    run(scenario)


def test_a_token_without_the_grant_is_refused(alice, bob):
    Memory.objects.create(user_id="alice", session_id="s1", type="fact", content=CONTENT, confidence=0.9)
    token = token_of(bob)

    async def scenario():
        async with serving() as http, mcp_client(http, token) as client:
            for name, arguments in [("search", {"query": "seats"}), ("hydrate", {}), ("get_profile", {}),
                                    ("forget", {"session_ids": ["s1"]}), ("remember", {"content": "x"})]:
                with pytest.raises(MCPError, match="may not act for user_id 'alice'"):
                    await client.call_tool(name, {**arguments, "user_id": "alice"})
            with pytest.raises(MCPError, match="may not act for user_id 'default'"):
                await client.call_tool("search", {"query": "seats"})  # no user id: `default`, not bob's
            own = await client.call_tool("search", {"query": "seats", "user_id": "bob"})
            assert own.structured_content["results"] == []

    run(scenario)
    assert Memory.objects.filter(user_id="alice").count() == 1


def test_a_request_without_a_valid_token_is_401(alice):
    async def scenario():
        async with serving() as http:
            body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
            for headers in [{}, {"Authorization": "Token not-a-token"}, {"Authorization": "Basic eDp5"}]:
                response = await http.post("/mcp", json=body, headers=headers)
                assert response.status_code == 401
                assert response.json()["error"] == "not_authenticated"
            response = await http.post("/mcp", json=body, headers={"Host": "evil.example"})
            assert response.status_code == 400

    run(scenario)


def test_bad_input_is_a_tool_error_and_writes_nothing(alice, recall_config):
    recall_config({"input_limits": {"max_content_chars": 50}})
    token = token_of(alice)

    async def scenario():
        async with serving() as http, mcp_client(http, token) as client:
            result = await client.call_tool("remember", {"content": "x" * 51, "user_id": "alice"})
            assert result.is_error and "content" in result.content[0].text
            result = await client.call_tool("forget", {"user_id": "alice"})
            assert result.is_error and "at least one of" in result.content[0].text

    run(scenario)
    assert not Memory.objects.filter(user_id="alice").exists()


def test_a_failed_tool_call_logs_none_of_its_input(alice, caplog):
    token = token_of(alice)

    async def scenario():
        async with serving() as http, mcp_client(http, token) as client:
            result = await client.call_tool("forget", {"user_id": "alice", "entity_ids": ["ent-my-sister-emma"]})
            assert result.is_error and "ent-my-sister-emma" in result.content[0].text  # the caller is told

    with caplog.at_level("DEBUG"):
        run(scenario)
    server_side = [r for r in caplog.records if not r.name.startswith(("mcp.client", "httpx"))]  # not the test's
    assert server_side and not [r for r in server_side if "my-sister-emma" in r.getMessage()]


def test_mcp_requests_count_against_the_api_rate_limits(alice, bob, recall_config):
    recall_config({"security": {"api_rate_per_token": "3/minute"}})
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
    headers = {"Accept": "application/json, text/event-stream"}

    async def scenario():
        async with serving() as http:
            for _ in range(3):
                response = await http.post("/mcp", json=body, headers={**headers, "Authorization": f"Token {alice_key}"})
                assert response.status_code == 200
            response = await http.post("/mcp", json=body, headers={**headers, "Authorization": f"Token {alice_key}"})
            assert response.status_code == 429
            assert response.json()["error"] == "throttled" and 0 < int(response.headers["Retry-After"]) <= 60
            response = await http.post("/mcp", json=body, headers={**headers, "Authorization": f"Token {bob_key}"})
            assert response.status_code == 200  # each token has its own count

    alice_key, bob_key = token_of(alice), token_of(bob)
    run(scenario)


def test_forget_takes_dry_run_as_a_json_boolean_only(alice):
    """"dry_run": 0 once ran a real delete: anything but true or false is a tool error that deletes nothing."""
    from tests import factories

    memory = factories.memory(content="prefers tea")
    token = token_of(alice)

    async def scenario():
        async with serving() as http, mcp_client(http, token) as client:
            for dry_run in (0, 1, "true", "false", None):
                result = await client.call_tool("forget", {"user_id": "alice", "memory_ids": [memory.pk],
                                                           "dry_run": dry_run})
                assert result.is_error, dry_run

    run(scenario)
    assert Memory.objects.filter(pk=memory.pk).exists()
