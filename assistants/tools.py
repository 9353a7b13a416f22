"""What each MCP tool does: the REST API's services, behind the REST API's own input serializers.

Each function takes the `Caller` and the tool's arguments, checks the user id against the caller's
grants first, validates the rest with the serializer its REST endpoint uses (same caps, e.g.
`input_limits.max_content_chars`), calls the service and returns an `Answer`: a short text for the
model and the REST response's data for the client. They are synchronous (the ORM); `mcp_server` runs
them on a worker thread. Bad input is a `ToolError` the model can read and correct.
"""
import json
from dataclasses import dataclass

from mcp.server.mcpserver.exceptions import ToolError
from rest_framework.exceptions import ValidationError

from access.scope import UserIdQuerySerializer
from assistants.callers import Caller
from forgetting.api.serializers import DeleteFilterSerializer, criteria_from
from forgetting.criteria import DeleteRequestError, UnknownTargetError
from forgetting.services import deletion_preview, hard_delete
from ingest.remember import remember_memory
from memories import services
from memories.api.serializers import (
    MemoryOutputSerializer,
    ProfileSerializer,
    ProfileUpdateInputSerializer,
    RememberInputSerializer,
)
from recall_site.api_input import validated
from search.api import serializers as search_io
from search.api.search import search_validated
from search.hydration import startup_digest, turn_retrieval

# The session a `remember` belongs to when the assistant names none (forget it with session_ids=["mcp"]).
DEFAULT_SESSION_ID = "mcp"


@dataclass
class Answer:
    text: str
    data: dict


def remember(caller: Caller, *, content: str, type: str | None = None, pinned: bool = False,
             session_id: str = DEFAULT_SESSION_ID, user_id: str | None = None) -> Answer:
    user_id = caller.user_id_for(user_id)
    data = _checked(RememberInputSerializer, _given(user_id=user_id, session_id=session_id, content=content,
                                                    type=type, pinned=pinned))
    data.pop("user_id")
    memory = remember_memory(user_id=user_id, actor=caller.actor, **data)
    return Answer(f"Remembered #{memory.pk} [{memory.type}] {memory.content}", MemoryOutputSerializer(memory).data)


def search(caller: Caller, *, query: str, user_id: str | None = None, session_id: str | None = None,
           hints: dict | None = None, filters: dict | None = None, types: list[str] | None = None,
           limit: int | None = None) -> Answer:
    """POST /api/v1/search's query shape and answer; the text lists the hits as `#id [type] content`."""
    user_id = caller.user_id_for(user_id)
    data = _checked(search_io.SearchInputSerializer, _given(
        query=query, scope=_given(user_id=user_id, session_id=session_id), hints=hints, filters=filters,
        types=types, limit=limit))
    outcome = search_validated(data, user_id)
    response = search_io.search_response(outcome)
    lines = [_hit_line(hit) for hit in response["results"]]
    return Answer("\n".join(lines) or f"No memories found ({response['skip_reason'] or 'no_match'}).", response)


def turn(caller: Caller, *, message: str, session_id: str, user_id: str | None = None) -> Answer:
    """Per-turn retrieval: memories to inject for this message, or why none (`skip_reason`)."""
    user_id = caller.user_id_for(user_id)
    data = _checked(search_io.TurnInputSerializer, {"user_id": user_id, "session_id": session_id,
                                                    "message": message})
    response = search_io.turn_response(turn_retrieval(user_id, data["session_id"], data["message"]))
    return Answer(response["text"] or f"Nothing to inject ({response['skip_reason']}).", response)


def hydrate(caller: Caller, *, user_id: str | None = None) -> Answer:
    """The startup digest: the profile and the pinned, reviewed memories, as a ready-to-inject text."""
    user_id = _checked(UserIdQuerySerializer, {"user_id": caller.user_id_for(user_id)})["user_id"]
    response = search_io.digest_response(user_id, startup_digest(user_id))
    return Answer(response["text"], response)


def forget(caller: Caller, *, memory_ids: list[int] | None = None, entity_ids: list[str] | None = None,
           session_ids: list[str] | None = None, dry_run: bool = False, reason: str = "",
           user_id: str | None = None) -> Answer:
    """POST /api/v1/delete for memory ids, people or things (entity ids) and sessions, or its dry run."""
    user_id = caller.user_id_for(user_id)
    criteria = criteria_from(_checked(DeleteFilterSerializer, _given(
        memory_ids=memory_ids, entity_refs=entity_ids, source_session=session_ids)))
    try:
        if dry_run:
            preview = deletion_preview(user_id=user_id, criteria=criteria)
            return Answer(_forget_text("Would delete", preview["counts"]), {"dry_run": True, **preview})
        result = hard_delete(user_id=user_id, criteria=criteria, actor=caller.actor, audit_reason=reason)
    except (DeleteRequestError, UnknownTargetError) as error:
        raise ToolError(str(error)) from error
    return Answer(_forget_text("Deleted", result["counts"]), {"dry_run": False, **result})


def get_profile(caller: Caller, *, user_id: str | None = None) -> Answer:
    user_id = _checked(UserIdQuerySerializer, {"user_id": caller.user_id_for(user_id)})["user_id"]
    return _profile_answer(services.profile_get(user_id))


def update_profile(caller: Caller, *, user_id: str | None = None, **changes) -> Answer:
    """Change the given profile fields (name, assistant_name, preferences, favorites); the rest stay."""
    user_id = caller.user_id_for(user_id)
    data = _checked(ProfileUpdateInputSerializer, _given(user_id=user_id, **changes))
    data.pop("user_id")
    return _profile_answer(services.profile_update(user_id=user_id, actor=caller.actor, **data))


def _checked(serializer_class, data: dict) -> dict:
    """The REST endpoint's validation; its field errors become the tool's error message."""
    try:
        return dict(validated(serializer_class, data))
    except ValidationError as error:
        raise ToolError(f"Invalid input: {json.dumps(error.detail)}") from error


def _given(**arguments) -> dict:
    """The arguments the caller gave (None means not given, so the serializer's default applies)."""
    return {name: value for name, value in arguments.items() if value is not None}


def _hit_line(hit: dict) -> str:
    unreviewed = "" if hit["reviewed"] else " (not reviewed yet)"
    return f"#{hit['id']} [{hit['type']}] {hit['content']}{unreviewed}"


def _forget_text(verb: str, counts: dict) -> str:
    parts = [f"{count} {table}" for table, count in counts.items() if count]
    return f"{verb}: {', '.join(parts) or 'nothing (no memory, entity or session of this user matched)'}."


def _profile_answer(profile) -> Answer:
    data = ProfileSerializer(profile).data
    text = "\n".join(f"{name}: {json.dumps(data[name]) if isinstance(data[name], dict) else data[name]}"
                     for name in ("name", "assistant_name", "preferences", "favorites"))
    return Answer(text, data)
