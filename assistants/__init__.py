"""Recall for assistants: the MCP server (tools over the same services as the REST API), served over
stdio (`manage.py mcp`) and streamable HTTP (`/mcp`)."""
