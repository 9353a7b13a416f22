"""What both transports' tests run through the SDK's own client: the tools and their hints, and
remember → search finds it → forget → search does not."""
from mcp import Client

TOOLS = {"remember", "search", "turn", "hydrate", "forget", "get_profile", "update_profile"}
READ_ONLY = {"search", "turn", "hydrate", "get_profile"}
CONTENT = "Prefers aisle seats on long flights"
QUERY = "which seats does she like on flights"


async def check_tools(client: Client) -> None:
    tools = {tool.name: tool.annotations for tool in (await client.list_tools()).tools}
    assert set(tools) == TOOLS
    assert {name for name, hints in tools.items() if hints.read_only_hint} == READ_ONLY
    assert {name for name, hints in tools.items() if hints.destructive_hint} == {"forget"}


async def remember_search_forget(client: Client, **user) -> None:
    remembered = await client.call_tool("remember", {"content": CONTENT, "type": "preference", **user})
    assert not remembered.is_error, remembered.content
    memory_id = remembered.structured_content["id"]
    assert f"#{memory_id} [preference] {CONTENT}" in remembered.content[0].text

    found = await client.call_tool("search", {"query": QUERY, **user})
    assert memory_id in [hit["id"] for hit in found.structured_content["results"]]
    assert f"#{memory_id} [preference]" in found.content[0].text

    preview = await client.call_tool("forget", {"memory_ids": [memory_id], "dry_run": True, **user})
    assert [m["id"] for m in preview.structured_content["memories"]] == [memory_id]
    forgotten = await client.call_tool("forget", {"memory_ids": [memory_id], **user})
    assert forgotten.structured_content["counts"]["memories"] == 1, forgotten.structured_content

    after = await client.call_tool("search", {"query": QUERY, **user})
    assert memory_id not in [hit["id"] for hit in after.structured_content["results"]]
