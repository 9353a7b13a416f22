"""Console pages for entities: the list, one entity (aliases and relations edited by hand), merge suggestions and
the contacts import.

Merging works in place with htmx (the pair is replaced by a confirmation line)
and without JavaScript (a confirmation page, then a redirect back).
"""
from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from access.console import console_view, is_htmx
from entities import selectors
from entities.contacts import ContactsFormatError, import_contacts
from entities.curation import CurationError, entity_alias_add, entity_alias_remove, relation_create, relation_delete
from entities.forms import (
    COMMON_PREDICATES,
    AliasForm,
    ContactsImportForm,
    EntitySearchForm,
    MergeForm,
    PairForm,
    RelationForm,
)
from entities.graph_view import neighbourhood_drawing
from entities.merge import MergeError, entity_merge, merge_dismiss, merge_suggestions
from entities.models import Entity, EntityKind
from recall_site.config import recall_setting

PAGE_SIZE = 50


def _own_entity(request, public_id: str) -> Entity:
    """The acting user's live entity, or 404 — the same answer whether another user's id exists or not."""
    entity = selectors.entity_get(user_id=request.acting_user_id, public_id=public_id)
    if entity is None:
        raise Http404("No such entity.")
    return entity


@console_view
def entity_list(request):
    form = EntitySearchForm(request.GET)
    form.is_valid()
    search = form.cleaned_data.get("q", "")
    entities = selectors.entity_list(user_id=request.acting_user_id, search=search,
                                   kind=form.cleaned_data.get("kind", ""))
    page = Paginator(entities, PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "entities/entity_list.html", {"form": form, "page": page, "search": search,
                                                          "filtered": bool(search or form.cleaned_data.get("kind"))})


def _detail_context(entity: Entity, alias_form=None, relation_form=None) -> dict:
    neighbourhood = selectors.entity_neighbourhood(entity, recall_setting("entities.graph_default_hop"))
    return {
        "entity": entity, "aliases": entity.aliases.order_by("alias"), "alias_form": alias_form or AliasForm(),
        "relation_form": relation_form or _relation_form(entity), "predicates": COMMON_PREDICATES,
        "memories": selectors.entity_memories(entity), "relations": selectors.entity_relations(entity),
        "neighbourhood": neighbourhood, "drawing": neighbourhood_drawing(neighbourhood),
    }


def _relation_form(entity: Entity, data=None) -> RelationForm:
    """The add-a-relation form; the other end is one of the same user's live entities."""
    others = Entity.objects.live().for_user(entity.user_id).exclude(pk=entity.pk).order_by("kind", "canonical_name")
    return RelationForm(data, others=others)


@console_view
def entity_detail(request, public_id):
    entity = _own_entity(request, public_id)
    return render(request, "entities/entity_detail.html", _detail_context(entity))


def _alias_change(request, public_id, change, done):
    entity = _own_entity(request, public_id)
    form = AliasForm(request.POST)
    if form.is_valid():
        try:
            change(entity=entity, alias=form.cleaned_data["alias"], actor=request.actor)
        except CurationError as error:
            form.add_error("alias", str(error))
    if not form.is_valid():
        return render(request, "entities/entity_detail.html", _detail_context(entity, form), status=400)
    messages.success(request, done.format(alias=form.cleaned_data["alias"]))
    return redirect("entity-detail", public_id=entity.public_id)


@console_view
@require_POST
def entity_alias_add_view(request, public_id):
    return _alias_change(request, public_id, entity_alias_add, "Added the alias “{alias}”.")


@console_view
@require_POST
def entity_alias_remove_view(request, public_id):
    return _alias_change(request, public_id, entity_alias_remove, "Removed the alias “{alias}”.")


@console_view
@require_POST
def entity_relation_add_view(request, public_id):
    entity = _own_entity(request, public_id)
    form = _relation_form(entity, request.POST)
    if form.is_valid():
        other = _own_entity(request, form.cleaned_data["other"])
        subject, obj = (entity, other) if form.cleaned_data["direction"] == "out" else (other, entity)
        try:
            relation_create(subject=subject, predicate=form.cleaned_data["predicate"], object=obj, actor=request.actor)
        except CurationError as error:
            form.add_error("predicate", str(error))
    if not form.is_valid():
        return render(request, "entities/entity_detail.html", _detail_context(entity, relation_form=form), status=400)
    messages.success(request, f"Added the relation {_named(subject)} {form.cleaned_data['predicate']} {_named(obj)}.")
    return redirect("entity-detail", public_id=entity.public_id)


@console_view
@require_POST
def entity_relation_remove_view(request, public_id, relation_id):
    """Remove one relation in or out of this entity (any other relation id is a 404)."""
    entity = _own_entity(request, public_id)
    relation = get_object_or_404(selectors.entity_relations(entity), pk=relation_id)
    words = f"{_named(relation.subject)} {relation.predicate} {_named(relation.object)}"
    relation_delete(relation=relation, actor=request.actor)
    messages.success(request, f"Removed the relation {words}.")
    return redirect("entity-detail", public_id=entity.public_id)


def _named(entity: Entity) -> str:
    return "you" if entity.kind == EntityKind.SELF else entity.canonical_name or entity.public_id


@console_view
def entity_merge_suggestions(request):
    suggestions = merge_suggestions(request.acting_user_id)
    ids = {entity.pk for s in suggestions for entity in (s.left, s.right)}
    counted = selectors.entity_list(user_id=request.acting_user_id).in_bulk(ids)
    for suggestion in suggestions:  # show each side with its memory and mention counts
        suggestion.left, suggestion.right = counted[suggestion.left.pk], counted[suggestion.right.pk]
    return render(request, "entities/merge_suggestions.html", {"suggestions": suggestions})


def _pair(request, form) -> tuple[Entity, Entity]:
    data = form.cleaned_data
    return _own_entity(request, data["left"]), _own_entity(request, data["right"])


def _pair_answered(request, form, message: str, *, failed: bool = False):
    if is_htmx(request):
        context = {"message": message, "failed": failed, "pair_id": f"{form.data.get('left')}-{form.data.get('right')}"}
        return render(request, "entities/_pair_done.html", context, status=400 if failed else 200)
    (messages.error if failed else messages.success)(request, message)
    return redirect("entity-merge-suggestions")


@console_view
@require_POST
def entity_merge_view(request):
    form = MergeForm(request.POST)
    if not form.is_valid():
        return _pair_answered(request, form, "Choose one of the two entities to keep.", failed=True)
    left, right = _pair(request, form)
    winner, loser = (left, right) if form.cleaned_data["winner"] == left.public_id else (right, left)
    if not form.cleaned_data["confirmed"]:
        return render(request, "entities/merge_confirm.html", {"winner": winner, "loser": loser, "form": form})
    try:
        entity_merge(user_id=request.acting_user_id, winner=winner, loser=loser, actor=request.actor)
    except MergeError as error:
        return _pair_answered(request, form, str(error), failed=True)
    return _pair_answered(request, form, f"Merged “{loser.canonical_name}” into “{winner.canonical_name}”.")


@console_view
@require_POST
def entity_merge_dismiss_view(request):
    form = PairForm(request.POST)
    if not form.is_valid():
        return _pair_answered(request, form, "Something was missing from that request.", failed=True)
    left, right = _pair(request, form)
    try:
        merge_dismiss(user_id=request.acting_user_id, left=left, right=right, actor=request.actor)
    except MergeError as error:
        return _pair_answered(request, form, str(error), failed=True)
    return _pair_answered(request, form, f"Kept “{left.canonical_name}” and “{right.canonical_name}” apart.")


@console_view
def contacts_import_view(request):
    form = ContactsImportForm(request.POST or None, request.FILES or None)
    summary = None
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            summary = import_contacts(user_id=request.acting_user_id, data=upload.read(), filename=upload.name,
                                      actor=request.actor, self_card=form.cleaned_data["self_card"])
        except ContactsFormatError as error:
            form.add_error("file", f"{error} Nothing was imported.")
    status = 400 if request.method == "POST" and not form.is_valid() else 200
    return render(request, "entities/contacts_import.html", {"form": form, "summary": summary}, status=status)
