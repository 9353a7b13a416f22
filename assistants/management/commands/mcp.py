"""manage.py mcp --user-id ID: serve Recall's MCP tools over stdio, for one user id.

This is what a desktop assistant launches (README: "Use it from an assistant (MCP)"): it speaks MCP on
stdin/stdout until the assistant closes them. The process is trusted like any management command, so
it needs no token, but it acts only for the user id it was started for; a tool call naming another is
refused. Audit events name the actor `manage.py mcp`. Logs go to stderr, never to the protocol stream.
"""
import anyio
from django.core.management.base import BaseCommand, CommandError

from assistants.callers import Caller
from assistants.mcp_server import recall_mcp_server

ACTOR = "manage.py mcp"


class Command(BaseCommand):
    help = "Serve Recall's MCP tools over stdio for one user id (what desktop assistants launch)."

    def add_arguments(self, parser):
        parser.add_argument("--user-id", required=True, help="The user id every tool call acts for.")

    def handle(self, *args, user_id, **options):
        if not user_id.strip():
            raise CommandError("--user-id may not be empty.")
        caller = Caller(actor=ACTOR, default_user_id=user_id.strip())
        anyio.run(recall_mcp_server(lambda ctx: caller).run_stdio_async)
