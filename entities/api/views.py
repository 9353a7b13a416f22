"""Entities API: list, detail, resolve, graph, merge, aliases, relations and contacts import.

Every endpoint acts for one granted user id; another user's public id is a 404.
"""
from django.db.models import Q
from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import api_view, parser_classes
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response

from access.grants import actor_name
from access.scope import scoped_user_id
from entities import selectors
from entities.api import serializers as s
from entities.contacts import ContactsFormatError, import_contacts
from entities.curation import CurationError, entity_alias_add, entity_alias_remove, relation_create, relation_delete
from entities.merge import MergeError, entity_merge
from entities.models import Entity, Relation
from entities.resolver import resolve_mention
from recall_site.api_input import validated
from recall_site.api_pagination import lists_pages, paginated_response
from recall_site.api_schema import with_errors
from recall_site.config import recall_setting


def _entity_or_404(user_id: str, public_id: str) -> Entity:
    entity = Entity.objects.live().for_user(user_id).filter(public_id=public_id).first()
    if entity is None:
        raise Http404("No such entity.")
    return entity


def _invalid(field: str, error: Exception):
    raise serializers.ValidationError({field: [str(error)]})


@extend_schema(parameters=[s.EntityListFilterSerializer],
               responses=with_errors({200: s.EntityOutputSerializer(many=True)}, 400))
@lists_pages
@api_view(["GET"])
def entity_list_view(request):
    filters = validated(s.EntityListFilterSerializer, request.query_params.dict())
    user_id = scoped_user_id(request, filters["user_id"])
    queryset = selectors.entity_list(user_id=user_id, search=filters["q"], kind=filters["kind"])
    return paginated_response(request, queryset, s.EntityOutputSerializer)


@extend_schema(parameters=[s.UserScopeSerializer],
               responses=with_errors({200: s.EntityDetailOutputSerializer}, 400, 404))
@api_view(["GET"])
def entity_detail_view(request, public_id: str):
    user_id = scoped_user_id(request, validated(s.UserScopeSerializer, request.query_params.dict())["user_id"])
    entity = selectors.entity_get(user_id=user_id, public_id=public_id)
    if entity is None:
        raise Http404("No such entity.")
    context = {"relations": selectors.entity_relations(entity), "memories": selectors.entity_memories(entity)}
    return Response(s.EntityDetailOutputSerializer(entity, context=context).data)


@extend_schema(request=s.ResolveInputSerializer, responses=with_errors({200: s.ResolutionOutputSerializer}, 400))
@api_view(["POST"])
def entity_resolve_view(request):
    data = validated(s.ResolveInputSerializer, request.data)
    resolution = resolve_mention(scoped_user_id(request, data["user_id"]), data["mention"])
    return Response(s.ResolutionOutputSerializer(resolution).data)


@extend_schema(parameters=[s.GraphQuerySerializer], responses=with_errors({200: s.GraphOutputSerializer}, 400, 404))
@api_view(["GET"])
def entity_graph_view(request, public_id: str):
    query = validated(s.GraphQuerySerializer, request.query_params.dict())
    entity = _entity_or_404(scoped_user_id(request, query["user_id"]), public_id)
    hop = query.get("hop") or recall_setting("entities.graph_default_hop")
    return Response(s.graph_payload(selectors.entity_neighbourhood(entity, hop)))


@extend_schema(request=s.MergeInputSerializer, responses=with_errors({200: dict}, 400, 404))
@api_view(["POST"])
def entity_merge_view(request):
    data = validated(s.MergeInputSerializer, request.data)
    user_id = scoped_user_id(request, data["user_id"])
    winner, loser = _entity_or_404(user_id, data["winner"]), _entity_or_404(user_id, data["loser"])
    try:
        counts = entity_merge(user_id=user_id, winner=winner, loser=loser, actor=actor_name(request.user))
    except MergeError as error:
        _invalid("loser", error)
    merged = selectors.entity_get(user_id=user_id, public_id=winner.public_id)
    return Response({"winner": s.EntityOutputSerializer(merged).data, "loser": data["loser"], "counts": counts})


@extend_schema(methods=["POST"], request=s.AliasInputSerializer,
               responses=with_errors({201: s.EntityOutputSerializer}, 400, 404))
@extend_schema(methods=["DELETE"], parameters=[s.AliasInputSerializer], request=None,
               responses=with_errors({200: s.EntityOutputSerializer}, 400, 404))
@api_view(["POST", "DELETE"])
def entity_aliases_view(request, public_id: str):
    data = validated(s.AliasInputSerializer, request.data or request.query_params.dict())
    user_id = scoped_user_id(request, data["user_id"])
    entity = _entity_or_404(user_id, public_id)
    actor = actor_name(request.user)
    try:
        if request.method == "POST":
            entity_alias_add(entity=entity, alias=data["alias"], actor=actor)
        else:
            entity_alias_remove(entity=entity, alias=data["alias"], actor=actor)
    except CurationError as error:
        _invalid("alias", error)
    code = status.HTTP_201_CREATED if request.method == "POST" else status.HTTP_200_OK
    return Response(s.EntityOutputSerializer(selectors.entity_get(user_id=user_id, public_id=public_id)).data,
                    status=code)


@extend_schema(methods=["GET"], parameters=[s.RelationFilterSerializer],
               responses=with_errors({200: s.RelationOutputSerializer(many=True)}, 400, 404))
@extend_schema(methods=["POST"], request=s.RelationCreateInputSerializer,
               responses=with_errors({201: s.RelationOutputSerializer}, 400, 404))
@lists_pages
@api_view(["GET", "POST"])
def relation_list_view(request):
    if request.method == "POST":
        return _relation_create(request)
    filters = validated(s.RelationFilterSerializer, request.query_params.dict())
    user_id = scoped_user_id(request, filters["user_id"])
    queryset = Relation.objects.filter(user_id=user_id, status=filters["status"],
                                       subject__deleted_at__isnull=True, object__deleted_at__isnull=True)
    if filters.get("entity"):
        entity = _entity_or_404(user_id, filters["entity"])
        queryset = queryset.filter(Q(subject=entity) | Q(object=entity))
    if filters.get("predicate"):
        queryset = queryset.filter(predicate=filters["predicate"])
    queryset = queryset.select_related("subject", "object").order_by("-created_at", "-pk")
    return paginated_response(request, queryset, s.RelationOutputSerializer)


@extend_schema(methods=["GET"], parameters=[s.UserScopeSerializer],
               responses=with_errors({200: s.RelationOutputSerializer}, 400, 404))
@extend_schema(methods=["DELETE"], parameters=[s.UserScopeSerializer], responses=with_errors({204: None}, 400, 404))
@api_view(["GET", "DELETE"])
def relation_detail_view(request, relation_id: int):
    """One of the user's relations; DELETE removes it for good (audited)."""
    user_id = scoped_user_id(request, validated(s.UserScopeSerializer, request.query_params.dict())["user_id"])
    relation = Relation.objects.filter(user_id=user_id, pk=relation_id).select_related("subject", "object").first()
    if relation is None:
        raise Http404("No such relation.")
    if request.method == "GET":
        return Response(s.RelationOutputSerializer(relation).data)
    relation_delete(relation=relation, actor=actor_name(request.user))
    return Response(status=status.HTTP_204_NO_CONTENT)


def _relation_create(request):
    data = validated(s.RelationCreateInputSerializer, request.data)
    user_id = scoped_user_id(request, data["user_id"])
    subject, object_ = _entity_or_404(user_id, data["subject"]), _entity_or_404(user_id, data["object"])
    try:
        relation = relation_create(subject=subject, predicate=data["predicate"], object=object_,
                                   confidence=data["confidence"], valid_from=data["valid_from"],
                                   actor=actor_name(request.user))
    except CurationError as error:
        _invalid("predicate", error)
    return Response(s.RelationOutputSerializer(relation).data, status=status.HTTP_201_CREATED)


@extend_schema(request={"multipart/form-data": s.ContactsImportInputSerializer},
               responses=with_errors({201: dict}, 400))
@api_view(["POST"])
@parser_classes([MultiPartParser, FormParser])
def contacts_import_view(request):
    body = request.data  # a QueryDict from a form; {} when the request had no body at all
    data = validated(s.ContactsImportInputSerializer, body.dict() if hasattr(body, "dict") else body)
    user_id = scoped_user_id(request, data["user_id"])
    upload = data["file"]
    if upload.size > recall_setting("contacts.max_upload_bytes"):
        _invalid("file", ValueError("The file is larger than contacts.max_upload_bytes allows."))
    try:
        summary = import_contacts(user_id=user_id, data=upload.read(), filename=upload.name,
                                  actor=actor_name(request.user), self_card=data["self_card"])
    except ContactsFormatError as error:
        _invalid("file", ValueError(f"{error} Nothing was imported."))
    return Response(summary.as_dict(), status=status.HTTP_201_CREATED)
