"""MCP tests: the real database, committed (`transaction=True`), since the tools run on other threads
or in another process; the semantic canary bypassed, as in tests/retrieval, so it cannot flip mid-suite."""
import pytest
from asgiref.sync import sync_to_async
from django.db import connections


@pytest.fixture(autouse=True)
def _canary_bypassed(canary_bypassed):  # tests/conftest.py
    yield


async def close_tool_connections() -> None:
    """Close the connections the tools opened on Django's thread for synchronous code."""
    await sync_to_async(connections.close_all)()
