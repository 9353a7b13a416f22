"""Reads of the entity graph: a recursive walk over active relations, skipping tombstoned nodes.

The walk follows relations in both directions (Sarah reaches Alex through
"alex partner_of sarah"), never revisits a node on the same path (cycle-safe),
and never enters a tombstoned entity. It reaches the user's own entity but never
walks on through it: "me" is related to everyone and links nothing topically
(Sarah → me → my dentist is no path).
"""
from dataclasses import dataclass

from django.db import connection

from entities.models import Entity, Relation

# Each step follows the current node's active relations out (subject → object) and in (object →
# subject) through the (user_id, subject) / (user_id, object) indexes: a few index probes per node
# instead of scanning all the user's relations at every depth.
_WALK_SQL = """
WITH RECURSIVE walk (entity_id, is_self, depth, node_path, relation_path, forward_path) AS (
    SELECT id, kind = 'self', 0, ARRAY[id], ARRAY[]::bigint[], ARRAY[]::boolean[]
    FROM entities_entity
    WHERE user_id = %(user_id)s AND id = ANY(%(start_ids)s) AND deleted_at IS NULL
    UNION ALL
    SELECT e.target_id, node.kind = 'self', w.depth + 1, w.node_path || e.target_id, w.relation_path || e.relation_id,
           w.forward_path || e.forward
    FROM walk w
    CROSS JOIN LATERAL (
        SELECT id AS relation_id, object_id AS target_id, TRUE AS forward FROM entities_relation
        WHERE user_id = %(user_id)s AND subject_id = w.entity_id AND status = 'active'
          AND (valid_to IS NULL OR valid_to > now())
        UNION ALL
        SELECT id, subject_id, FALSE FROM entities_relation
        WHERE user_id = %(user_id)s AND object_id = w.entity_id AND status = 'active'
          AND (valid_to IS NULL OR valid_to > now())
    ) AS e
    JOIN entities_entity node ON node.id = e.target_id AND node.deleted_at IS NULL
    WHERE w.depth < %(hop)s AND NOT w.is_self AND NOT e.target_id = ANY(w.node_path)
)
SELECT entity_id, is_self, depth, node_path, relation_path, forward_path FROM walk
"""


SYMMETRIC_PREDICATES = frozenset(
    {"partner_of", "married_to", "sibling_of", "roommate_of", "friend_of", "colleague_of", "related_to"}
)


@dataclass(frozen=True)
class Step:
    relation_id: int
    forward: bool  # True: walked subject → object; False: object → subject


@dataclass(frozen=True)
class Reached:
    entity_id: int
    depth: int
    node_path: tuple[int, ...]
    steps: tuple[Step, ...]
    is_self: bool = False  # the user's own entity: reached, but never walked through


def _walk_rows(user_id: str, entity_ids, hop: int) -> list[Reached]:
    ids = [int(pk) for pk in entity_ids]
    if not ids:
        return []
    with connection.cursor() as cursor:
        cursor.execute(_WALK_SQL, {"user_id": user_id, "start_ids": ids, "hop": max(int(hop), 0)})
        rows = cursor.fetchall()
    return [
        Reached(entity_id, depth, tuple(nodes), tuple(Step(r, f) for r, f in zip(relations, forwards)), is_self)
        for entity_id, is_self, depth, nodes, relations, forwards in rows
    ]


def graph_walk(user_id: str, entity_ids, hop: int) -> list[Reached]:
    """Every live entity within `hop` hops of the start entities, with its shortest path (start ones at depth 0)."""
    best: dict[int, Reached] = {}
    for reached in _walk_rows(user_id, entity_ids, hop):
        current = best.get(reached.entity_id)
        if current is None or (reached.depth, reached.node_path) < (current.depth, current.node_path):
            best[reached.entity_id] = reached
    return sorted(best.values(), key=lambda r: (r.depth, r.entity_id))


def graph_neighbourhood(entity: Entity, hops: int = 2) -> list[tuple[Relation, int]]:
    """Relations within `hops` of `entity`, each with the depth at which the walk first crosses it."""
    depth_by_relation: dict[int, int] = {}
    for reached in _walk_rows(entity.user_id, [entity.pk], hops):
        for index, step in enumerate(reached.steps, start=1):
            depth_by_relation[step.relation_id] = min(index, depth_by_relation.get(step.relation_id, index))
    relations = Relation.objects.filter(pk__in=depth_by_relation).select_related("subject", "object")
    return sorted(((r, depth_by_relation[r.pk]) for r in relations), key=lambda item: (item[1], item[0].pk))


# Entity labels and relation predicates of the steps on some paths, in one round trip.
_PATH_WORDS_SQL = """
SELECT TRUE, id, COALESCE(NULLIF(canonical_name, ''), public_id) FROM entities_entity WHERE id = ANY(%s)
UNION ALL
SELECT FALSE, id, predicate FROM entities_relation WHERE id = ANY(%s)
"""


def path_words(paths: list[Reached]) -> tuple[dict[int, str], dict[int, str]]:
    """({entity id: lower-case label}, {relation id: predicate}) for everything on `paths`."""
    entity_ids = sorted({pk for reached in paths for pk in reached.node_path})
    relation_ids = sorted({step.relation_id for reached in paths for step in reached.steps})
    labels, predicates = {}, {}
    with connection.cursor() as cursor:
        cursor.execute(_PATH_WORDS_SQL, [entity_ids, relation_ids])
        for is_entity, pk, word in cursor.fetchall():
            if is_entity:
                labels[pk] = word.lower()  # Python's lower(): the database's locale may only know ASCII
            else:
                predicates[pk] = word
    return labels, predicates


def path_label(reached: Reached, labels: dict[int, str], predicates: dict[int, str]) -> str:
    """"sarah chen -partner_of-> alex"; an edge walked against its direction reads "a <-p- b"."""
    if not reached.steps:
        return ""
    parts = [labels.get(reached.node_path[0], "?")]
    for step, node_id in zip(reached.steps, reached.node_path[1:]):
        predicate = predicates.get(step.relation_id, "related_to")
        arrow = f"-{predicate}->" if step.forward or predicate in SYMMETRIC_PREDICATES else f"<-{predicate}-"
        parts += [arrow, labels.get(node_id, "?")]
    return " ".join(parts)
