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
WITH RECURSIVE walk (entity_id, is_self, depth, node_path, relation_path, forward_path, label_path, predicate_path) AS (
    SELECT id, kind = 'self', 0, ARRAY[id], ARRAY[]::bigint[], ARRAY[]::boolean[],
           ARRAY[COALESCE(NULLIF(canonical_name, ''), public_id::text)], ARRAY[]::text[]
    FROM entities_entity
    WHERE user_id = %(user_id)s AND id = ANY(%(start_ids)s) AND deleted_at IS NULL
    UNION ALL
    SELECT e.target_id, node.kind = 'self', w.depth + 1, w.node_path || e.target_id, w.relation_path || e.relation_id,
           w.forward_path || e.forward, w.label_path || COALESCE(NULLIF(node.canonical_name, ''), node.public_id::text),
           w.predicate_path || e.predicate::text
    FROM walk w
    CROSS JOIN LATERAL (
        SELECT id AS relation_id, object_id AS target_id, TRUE AS forward, predicate FROM entities_relation
        WHERE user_id = %(user_id)s AND subject_id = w.entity_id AND status = 'active'
          AND (valid_to IS NULL OR valid_to > now())
        UNION ALL
        SELECT id, subject_id, FALSE, predicate FROM entities_relation
        WHERE user_id = %(user_id)s AND object_id = w.entity_id AND status = 'active'
          AND (valid_to IS NULL OR valid_to > now())
    ) AS e
    JOIN entities_entity node ON node.id = e.target_id AND node.deleted_at IS NULL
    WHERE w.depth < %(hop)s AND NOT w.is_self AND NOT e.target_id = ANY(w.node_path)
)
SELECT entity_id, is_self, depth, node_path, relation_path, forward_path, label_path, predicate_path FROM walk
"""


SYMMETRIC_PREDICATES = frozenset(
    {"partner_of", "spouse_of", "married_to", "sibling_of", "roommate_of", "friend_of", "colleague_of", "related_to"}
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
    labels: tuple[str, ...] = ()  # the entities' names along node_path
    predicates: tuple[str, ...] = ()  # the relations' predicates along steps

    @property
    def path_label(self) -> str:
        """"sarah chen -partner_of-> alex"; an edge walked against its direction reads "a <-p- b"; a start
        entity: its own name."""
        labels = [label.lower() for label in self.labels]  # Python's lower(): the database's locale may be ASCII
        parts = labels[:1]
        for step, predicate, label in zip(self.steps, self.predicates, labels[1:]):
            arrow = f"-{predicate}->" if step.forward or predicate in SYMMETRIC_PREDICATES else f"<-{predicate}-"
            parts += [arrow, label]
        return " ".join(parts)


def _walk_rows(user_id: str, entity_ids, hop: int) -> list[Reached]:
    ids = [int(pk) for pk in entity_ids]
    if not ids:
        return []
    with connection.cursor() as cursor:
        cursor.execute(_WALK_SQL, {"user_id": user_id, "start_ids": ids, "hop": max(int(hop), 0)})
        rows = cursor.fetchall()
    return [
        Reached(entity_id, depth, tuple(nodes), tuple(Step(r, f) for r, f in zip(relations, forwards)), is_self,
                tuple(labels), tuple(predicates))
        for entity_id, is_self, depth, nodes, relations, forwards, labels, predicates in rows
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
