"""Reads for entity lists and entity pages: counts, aliases, memories, relations, graph neighbourhood.

Tombstoned entities never appear. Every read is scoped to one user id. The memories linked to an entity
are read through the reverse relation their model declares (`Entity.memories`), so entities imports
nothing of the memories app (docs/architecture.md).
"""
from dataclasses import dataclass

from django.db import connection
from django.db.models import Count, IntegerField, OuterRef, Q, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce

from entities.graph import graph_neighbourhood, graph_walk
from entities.models import Alias, Entity, EntityMention, Relation, RelationStatus

# The memory ↔ entity link table, as the memories app declares it on its side.
MEMORY_LINKS = Entity.memories.through


def _count_subquery(queryset, column: str):
    counted = queryset.order_by().values("entity_id").annotate(n=Count(column, distinct=True)).values("n")
    return Coalesce(Subquery(counted, output_field=IntegerField()), Value(0))


def entity_list(*, user_id: str, search: str = "", kind: str = "") -> QuerySet:
    """Live entities with `memory_count` and `mention_session_count`, the most talked-about first."""
    queryset = (
        Entity.objects.live().for_user(user_id)
        .annotate(
            memory_count=_count_subquery(MEMORY_LINKS.objects.filter(entity_id=OuterRef("pk")), "memory_id"),
            mention_session_count=_count_subquery(
                EntityMention.objects.filter(entity_id=OuterRef("pk")), "session_id"),
        )
        .prefetch_related("aliases")
        .order_by("-mention_session_count", "-memory_count", "canonical_name")
    )
    if kind:
        queryset = queryset.filter(kind=kind)
    if search.strip():
        term = search.strip()
        matching = Q(canonical_name__icontains=term) | Q(aliases__alias__icontains=term)
        queryset = queryset.filter(pk__in=Entity.objects.filter(matching).values("pk"))
    return queryset


def entity_get(*, user_id: str, public_id: str) -> Entity | None:
    """One live entity of this user with its counts, or None (another user's id looks the same as none)."""
    return entity_list(user_id=user_id).filter(public_id=public_id).first()


def entity_memories(entity: Entity, limit: int = 100) -> QuerySet:
    return entity.memories.filter(user_id=entity.user_id).order_by("-created_at")[:limit]


def entity_relations(entity: Entity) -> QuerySet:
    """Active relations in and out of one entity, other endpoint live."""
    return (
        Relation.objects.filter(user_id=entity.user_id, status=RelationStatus.ACTIVE)
        .filter(Q(subject=entity, object__deleted_at__isnull=True) | Q(object=entity, subject__deleted_at__isnull=True))
        .select_related("subject", "object").order_by("predicate", "pk")
    )


@dataclass
class Neighbourhood:
    root: Entity
    hop: int
    nodes: list[tuple[Entity, int]]       # (entity, depth); the root at depth 0
    edges: list[tuple[Relation, int]]     # (relation, depth at which the walk first crosses it)


def entity_neighbourhood(entity: Entity, hop: int) -> Neighbourhood:
    reached = graph_walk(entity.user_id, [entity.pk], hop)
    entities = Entity.objects.in_bulk([r.entity_id for r in reached])
    nodes = [(entities[r.entity_id], r.depth) for r in reached if r.entity_id in entities]
    return Neighbourhood(root=entity, hop=hop, nodes=nodes, edges=graph_neighbourhood(entity, hops=hop))


_KNOWN_FORMS_SQL = f"""
SELECT split_part(normalized_name, ' ', 1), normalized_name FROM {Entity._meta.db_table}
WHERE user_id = %(user_id)s AND deleted_at IS NULL
  AND (normalized_name = ANY(%(forms)s) OR split_part(normalized_name, ' ', 1) = ANY(%(forms)s))
UNION ALL
SELECT a.normalized, a.normalized FROM {Alias._meta.db_table} a JOIN {Entity._meta.db_table} e ON e.id = a.entity_id
WHERE a.user_id = %(user_id)s AND a.normalized = ANY(%(forms)s) AND e.deleted_at IS NULL
"""


def known_name_forms(user_id: str, forms) -> set[str]:
    """Those of these normalised forms that name one of the user's live entities (its name, a name's first
    word, or an alias), in one statement."""
    forms = sorted(set(forms))
    if not forms:
        return set()
    with connection.cursor() as cursor:
        cursor.execute(_KNOWN_FORMS_SQL, {"user_id": user_id, "forms": forms})
        return {form for row in cursor.fetchall() for form in row} & set(forms)
