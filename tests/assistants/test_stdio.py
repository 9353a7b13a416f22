"""The stdio transport: `manage.py mcp --user-id alice` spawned as a subprocess, as a desktop assistant
launches it, driven by the SDK's client; it uses this test's database (DATABASE_URL) and commits."""
import os
import sys
from pathlib import Path
from urllib.parse import quote

import anyio
import pytest
from django.db import connection
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

from tests.assistants.round_trip import check_tools, remember_search_forget

pytestmark = pytest.mark.django_db(transaction=True)
ROOT = Path(__file__).resolve().parents[2]


def database_url() -> str:
    """The test database (pytest-django's, e.g. test_recall) as a URL; a socket directory as the host."""
    db = connection.settings_dict
    return (f"postgres://{quote(db['USER'])}:{quote(db['PASSWORD'] or '')}@{quote(db['HOST'], safe='')}"
            f"{':' + str(db['PORT']) if db['PORT'] else ''}/{db['NAME']}")


def mcp_process(user_id: str) -> StdioServerParameters:
    env = {
        "DATABASE_URL": database_url(),
        "DJANGO_SETTINGS_MODULE": "recall_site.settings",
        "SECRET_KEY": "test-only-secret-key-not-for-any-deployment",
        "RECALL__MEMORY_SEMANTIC__ENABLED": "false",  # text + graph search: no model to load in the child
        "RECALL_VAR_DIR": os.environ.get("RECALL_VAR_DIR", str(ROOT / "var")),
    }
    return StdioServerParameters(command=sys.executable, args=["manage.py", "mcp", "--user-id", user_id],
                                 cwd=ROOT, env=env)


def test_stdio_server_acts_for_its_user_id_only():
    async def scenario():
        # The first call waits for the child's start-up (the domain tagger's model: ~4 s on a quiet host, over
        # 30 on a busy one, where 30 timed out): a slow start is no failure of the transport.
        async with Client(mcp_process("alice"), read_timeout_seconds=120) as client:
            await check_tools(client)
            await remember_search_forget(client)  # no user id given: the process's own
            await remember_search_forget(client, user_id="alice")
            with pytest.raises(MCPError, match="may not act for user_id 'bob'"):
                await client.call_tool("search", {"query": "seats", "user_id": "bob"})

    anyio.run(scenario)
