"""Recall's MCP server: the tools an assistant calls, one per REST service, for either transport.

`recall_mcp_server(caller_of)` builds an `MCPServer` (the official `mcp` SDK, 2.x) whose tools are
thin: they say who calls (`caller_of(ctx)`: the stdio process or the HTTP request's account) and run
the matching function of `assistants.tools` on Django's thread for synchronous code, framed by
`close_old_connections()` as Django frames a request. Every answer is text (for the model) and
structured content (the REST API's JSON for the same call). Read-only tools carry `readOnlyHint`,
`forget` carries `destructiveHint`; nothing here reaches outside Recall (`openWorldHint` false).
"""
import logging
from collections.abc import Callable
from typing import Annotated, Literal

from asgiref.sync import sync_to_async
from django.db import close_old_connections
from mcp.server.mcpserver import Context, MCPServer
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field, StrictBool
from typing_extensions import TypedDict

from assistants import tools
from assistants.callers import Caller
from memories.models import Domain, MemoryType

INSTRUCTIONS = (
    "Recall is the user's long-term memory. Call `hydrate` when a conversation starts and `turn` with each "
    "user message to get what is worth knowing; `remember` what the user asks you to remember; `search` "
    "to look something up; `forget` (try dry_run first) when the user asks you to forget."
)
READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)
ADDITIVE = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)
DESTRUCTIVE = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=True,
                              open_world_hint=False)

MemoryTypeName = Literal[tuple(MemoryType.values)]  # the choices of the models, in the input schema
DomainName = Literal[tuple(Domain.values)]
UserId = Annotated[str | None, Field(description="The user id to act for; by default the connection's.")]


class Hints(TypedDict, total=False):
    entities: Annotated[list[str], Field(description="Names or entity ids the question is about.")]
    hop: Annotated[int, Field(description="How many relations to follow from them (default 1, at most 3).")]


class Filters(TypedDict, total=False):
    domains: list[DomainName]
    min_confidence: float
    include_all_domains: bool


def recall_mcp_server(caller_of: Callable[[Context], Caller]) -> MCPServer:
    """The MCP server with Recall's tools; `caller_of` tells who makes a call."""
    server = _without_logging_changes(lambda: MCPServer("recall", instructions=INSTRUCTIONS))

    async def answer(ctx: Context, tool, **arguments) -> CallToolResult:
        result = await sync_to_async(_as_request)(tool, caller_of(ctx), **arguments)
        return CallToolResult(content=[TextContent(type="text", text=result.text)], structured_content=result.data)

    @server.tool(annotations=ADDITIVE)
    async def remember(ctx: Context, content: str, type: MemoryTypeName | None = None, pinned: bool = False,
                       session_id: str = tools.DEFAULT_SESSION_ID, user_id: UserId = None) -> CallToolResult:
        """Remember what the user explicitly asked to remember. Saying the same thing again reinforces it;
        a new value for a known attribute replaces the old one. Pinned memories join the startup digest."""
        return await answer(ctx, tools.remember, content=content, type=type, pinned=pinned,
                            session_id=session_id, user_id=user_id)

    @server.tool(annotations=READ_ONLY)
    async def search(ctx: Context, query: str, hints: Hints | None = None, filters: Filters | None = None,
                     types: list[MemoryTypeName] | None = None, limit: int | None = None,
                     session_id: str | None = None, user_id: UserId = None) -> CallToolResult:
        """Search the user's memories (text, meaning and the graph of people). Results are `#id [type]
        content`; the structured result adds scores, entities, dates and why each one matched."""
        return await answer(ctx, tools.search, query=query, hints=hints, filters=filters, types=types,
                            limit=limit, session_id=session_id, user_id=user_id)

    @server.tool(annotations=READ_ONLY)
    async def turn(ctx: Context, message: str, session_id: str, user_id: UserId = None) -> CallToolResult:
        """Memories worth injecting for this user message, or why none (skip_reason: short_input,
        cooldown, already_injected, no_match). It only records what it injected, so it does not repeat."""
        return await answer(ctx, tools.turn, message=message, session_id=session_id, user_id=user_id)

    @server.tool(annotations=READ_ONLY)
    async def hydrate(ctx: Context, user_id: UserId = None) -> CallToolResult:
        """The startup digest for a new conversation: the profile and the pinned memories, as text."""
        return await answer(ctx, tools.hydrate, user_id=user_id)

    @server.tool(annotations=DESTRUCTIVE)
    async def forget(ctx: Context, memory_ids: list[int] | None = None, entity_ids: list[str] | None = None,
                     session_ids: list[str] | None = None, dry_run: StrictBool = False, reason: str = "",
                     user_id: UserId = None) -> CallToolResult:
        """Forget for good: memory ids, people or things (entity ids, e.g. from search results: everything
        about them goes) or whole sessions. dry_run lists what would go and changes nothing."""
        return await answer(ctx, tools.forget, memory_ids=memory_ids, entity_ids=entity_ids,
                            session_ids=session_ids, dry_run=dry_run, reason=reason, user_id=user_id)

    @server.tool(annotations=READ_ONLY)
    async def get_profile(ctx: Context, user_id: UserId = None) -> CallToolResult:
        """The user's profile: name, the assistant's name, preferences and favorites."""
        return await answer(ctx, tools.get_profile, user_id=user_id)

    @server.tool(annotations=ADDITIVE)
    async def update_profile(ctx: Context, name: str | None = None, assistant_name: str | None = None,
                             preferences: dict | None = None, favorites: dict | None = None,
                             user_id: UserId = None) -> CallToolResult:
        """Change the given profile fields; the others stay as they are."""
        return await answer(ctx, tools.update_profile, name=name, assistant_name=assistant_name,
                            preferences=preferences, favorites=favorites, user_id=user_id)

    return server


def _without_logging_changes(build):
    """MCPServer() calls logging.basicConfig(), which adds a handler to a root logger that has none (as
    under the test settings); Django's logging (recall_site/log_redaction.py) stays the only setup. The
    library logs a failed tool call's message at INFO, and the message may quote the caller's input
    ("Unknown entity ids: …"): the caller is told in the tool result, the log keeps warnings only."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        return build()
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)
        logging.getLogger("mcp.server.mcpserver.server").setLevel(logging.WARNING)


def _as_request(tool, caller: Caller, **arguments) -> tools.Answer:
    """Run one tool call as Django runs one request: stale or broken connections closed before and after."""
    close_old_connections()
    try:
        return tool(caller, **arguments)
    finally:
        close_old_connections()
