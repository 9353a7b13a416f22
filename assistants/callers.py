"""Who calls the MCP tools, and which user ids they may act for.

Over HTTP the caller is an account, authenticated by its API token and held to its user-id grants
(`access.grants.can_act_for`), exactly as a REST request is. Over stdio it is the local process an
operator started for one user id (`manage.py mcp --user-id ID`), which acts for that id only.
Another user id is refused with an MCP error before any service runs, so it never yields data.
"""
from dataclasses import dataclass

from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS

from access.grants import can_act_for


@dataclass(frozen=True)
class Caller:
    actor: str  # recorded in the audit log, as an account's username is for the REST API
    default_user_id: str
    account: object | None = None  # None: the local stdio process

    def user_id_for(self, requested: str | None) -> str:
        """The user id a tool call acts for (`default_user_id` if none is given); an MCP error if not allowed.
        Runs a query for an account: call it from the tool's worker thread."""
        user_id = (requested or self.default_user_id).strip()
        if self.account is None:
            allowed = user_id == self.default_user_id
        else:
            allowed = can_act_for(self.account, user_id)
        if not allowed:
            raise MCPError(code=INVALID_PARAMS, message=f"This caller may not act for user_id '{user_id}'.")
        return user_id
