"""Lay out an entity's graph neighbourhood for a small server-drawn SVG on the entity page.

The root sits in the middle, depth-1 neighbours on an inner ring and depth-2
ones on an outer ring next to the neighbour they were reached through.
"""
import math
from dataclasses import dataclass

WIDTH, HEIGHT = 640, 400
# Rings are ellipses (wider than tall) to fit a laptop-width card: (x radius, y radius).
RING = {1: (150, 95), 2: (272, 168)}
# Largest angle between two depth-2 nodes hanging off the same neighbour.
CHILD_SPREAD = 0.42
LABEL_CHARS = 18
LABEL_AT = 0.62  # where along an edge its predicate is written, from the inner end


@dataclass
class DrawnNode:
    public_id: str
    label: str
    kind: str
    depth: int
    x: float
    y: float


@dataclass
class DrawnEdge:
    x1: float
    y1: float
    x2: float
    y2: float
    label: str
    lx: float
    ly: float


def _short(text: str) -> str:
    return text if len(text) <= LABEL_CHARS else text[: LABEL_CHARS - 1] + "…"


def _point(depth: int, angle: float, centre) -> tuple[float, float]:
    rx, ry = RING[depth]
    return centre[0] + rx * math.cos(angle), centre[1] + ry * math.sin(angle)


def _angles(first, children) -> dict[int, float]:
    """Depth-1 nodes evenly round the inner ring; each one's depth-2 nodes fanned out behind it."""
    angles = {}
    for index, pk in enumerate(first):
        angles[pk] = -math.pi / 2 + math.pi / max(len(first), 1) + 2 * math.pi * index / max(len(first), 1)
    total = sum(len(kids) for kids in children.values())
    step = min(CHILD_SPREAD, 2 * math.pi / max(total, 1))
    for parent, kids in children.items():
        for index, pk in enumerate(kids):
            angles[pk] = angles[parent] + (index - (len(kids) - 1) / 2) * step
    return angles


def neighbourhood_drawing(neighbourhood) -> dict:
    """{"width", "height", "nodes": [DrawnNode], "edges": [DrawnEdge]} for the template to draw."""
    centre = (WIDTH / 2, HEIGHT / 2)
    entities = {entity.pk: (entity, depth) for entity, depth in neighbourhood.nodes}
    parent = {}
    for relation, _depth in neighbourhood.edges:
        for near, far in ((relation.subject_id, relation.object_id), (relation.object_id, relation.subject_id)):
            if near in entities and far in entities and entities[far][1] == entities[near][1] + 1:
                parent.setdefault(far, near)
    first = sorted((pk for pk, (_e, d) in entities.items() if d == 1), key=lambda pk: entities[pk][0].canonical_name)
    children = {pk: [] for pk in first}
    for pk in sorted(pk for pk, (_e, d) in entities.items() if d == 2):
        if parent.get(pk) in children:
            children[parent[pk]].append(pk)
    angles = _angles(first, children)
    positions = {neighbourhood.root.pk: centre}
    positions.update({pk: _point(entities[pk][1], angle, centre) for pk, angle in angles.items()})
    nodes = [DrawnNode(entity.public_id, _short(entity.canonical_name or entity.public_id), entity.kind, depth,
                       *positions[pk]) for pk, (entity, depth) in entities.items() if pk in positions]
    edges = []
    for relation, _depth in neighbourhood.edges:
        if relation.subject_id in positions and relation.object_id in positions:
            (x1, y1), (x2, y2) = positions[relation.subject_id], positions[relation.object_id]
            # The label sits past the middle, towards the outer node, away from the crowded centre.
            inner, outer = sorted([(x1, y1), (x2, y2)], key=lambda p: math.dist(p, centre))
            lx, ly = inner[0] + LABEL_AT * (outer[0] - inner[0]), inner[1] + LABEL_AT * (outer[1] - inner[1])
            edges.append(DrawnEdge(x1, y1, x2, y2, relation.predicate.replace("_", " "), lx, ly))
    return {"width": WIDTH, "height": HEIGHT, "nodes": sorted(nodes, key=lambda n: n.depth, reverse=True),
            "edges": edges}
