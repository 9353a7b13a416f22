"""Retrieval API: search, the startup digest (hydrate) and per-turn retrieval."""
import time

from drf_spectacular.utils import extend_schema
from rest_framework.decorators import api_view
from rest_framework.response import Response

from access.scope import UserIdQuerySerializer, query_user_id, scoped_user_id
from memories.api import response_schemas as out
from recall_site.api_input import validated
from recall_site.api_schema import with_errors
from recall_site.telemetry import SEARCH_SECONDS
from search.api import serializers as s
from search.hydration import startup_digest, turn_retrieval
from search.retrieval import search_memories


@extend_schema(request=s.SearchInputSerializer, responses=with_errors({200: out.SearchOutputSerializer}, 400))
@api_view(["POST"])
def search_view(request):
    data = validated(s.SearchInputSerializer, request.data)
    user_id = scoped_user_id(request, data.get("scope", {}).get("user_id"))
    outcome = search_validated(data, user_id)
    return Response(s.search_response(outcome))


def search_validated(data: dict, user_id: str):
    """Run a validated search input (the seed's query shape) for one authorised user id, timed for
    Prometheus; the REST view and the MCP `search` tool both answer through it."""
    scope, hints, filters = data.get("scope", {}), data.get("hints", {}), data.get("filters", {})
    began = time.perf_counter()
    outcome = search_memories(
        user_id=user_id, query=data["query"], session_id=scope.get("session_id") or None,
        entities=hints.get("entities", ()), hop=hints.get("hop"), types=data.get("types"),
        domains=filters.get("domains"), min_confidence=filters.get("min_confidence"),
        include_all_domains=filters.get("include_all_domains", False), limit=data.get("limit"),
    )
    SEARCH_SECONDS.labels(search_mode(outcome, hints.get("hop"))).observe(time.perf_counter() - began)
    return outcome


def search_mode(outcome, hop) -> str:
    """"hybrid" (meaning and words) or "text" (words only), "+hops" when the request asked for graph hops."""
    return ("hybrid" if "semantic" in outcome.retrievers else "text") + ("+hops" if hop else "")


@extend_schema(parameters=[UserIdQuerySerializer], responses=with_errors({200: out.DigestOutputSerializer}, 400))
@api_view(["GET"])
def hydrate_view(request):
    user_id = query_user_id(request)
    return Response(s.digest_response(user_id, startup_digest(user_id)))


@extend_schema(request=s.TurnInputSerializer, responses=with_errors({200: out.TurnOutputSerializer}, 400))
@api_view(["POST"])
def turn_view(request):
    data = validated(s.TurnInputSerializer, request.data)
    user_id = scoped_user_id(request, data["user_id"])
    return Response(s.turn_response(turn_retrieval(user_id, data["session_id"], data["message"])))
