"""MCP tests: the real database, committed (`transaction=True`), since the tools run on other threads
or in another process; the semantic canary bypassed, as in tests/retrieval, so it cannot flip mid-suite."""
import pytest
from asgiref.sync import sync_to_async
from django.db import connections

from memories.readiness import reset_canary


@pytest.fixture(autouse=True)
def canary_bypassed(recall_config):
    recall_config({"memory_semantic": {"startup_canary_bypass": True}})
    reset_canary()
    yield
    reset_canary()


async def close_tool_connections() -> None:
    """Close the connections the tools opened on Django's thread for synchronous code."""
    await sync_to_async(connections.close_all)()
