"""Lay out an entity's graph neighbourhood for a small server-drawn SVG on the entity page.

The root sits in the middle, depth-1 neighbours on an inner ring and depth-2
ones on an outer ring next to the neighbour they were reached through. Each
edge's predicate is written on the edge where its estimated text box covers no
node, no name and no other predicate; the picture is then cropped to what it
holds (keeping the root in the middle) and drawn at its own size, so 12 px text
stays 12 px on screen.
"""
import math
from dataclasses import dataclass

# Rings are ellipses (wider than tall) to fit a laptop-width card: (x radius, y radius).
RING = {1: (150, 95), 2: (272, 168)}
# Largest angle between two depth-2 nodes hanging off the same neighbour.
CHILD_SPREAD = 0.42
LABEL_CHARS = 18
# Where along an edge its predicate may be written (from the inner end, best first), and the sideways
# shifts tried at each spot.
LABEL_SPOTS = (0.62, 0.5, 0.74, 0.4, 0.84, 0.3, 0.92, 0.2)
LABEL_SHIFTS = (0, -9, 9, -18, 18, -27, 27)
# Text sizes in px, and the width of a character in ems, estimated on the wide side (names are
# proportional, predicates monospace).
NAME_FONT, ROOT_FONT, PREDICATE_FONT = 13, 14, 12
NAME_EM, PREDICATE_EM = 0.62, 0.62
RADIUS = {0: 11, 1: 7, 2: 7}
MARGIN = 8


@dataclass(frozen=True)
class Box:
    left: float
    top: float
    right: float
    bottom: float

    def overlap(self, other: "Box") -> float:
        """The area two boxes share (0 when apart)."""
        width = min(self.right, other.right) - max(self.left, other.left)
        height = min(self.bottom, other.bottom) - max(self.top, other.top)
        return width * height if width > 0 and height > 0 else 0.0


def text_box(x: float, baseline: float, text: str, font: float, em: float) -> Box:
    """The box a centred text line takes (ascent 0.8, descent 0.25 of the font size)."""
    half = len(text) * font * em / 2
    return Box(x - half, baseline - 0.8 * font, x + half, baseline + 0.25 * font)


@dataclass
class DrawnNode:
    public_id: str
    label: str
    kind: str
    depth: int
    x: float
    y: float

    @property
    def radius(self) -> int:
        return RADIUS[min(self.depth, 2)]

    @property
    def font(self) -> int:
        return ROOT_FONT if self.depth == 0 else NAME_FONT

    @property
    def label_y(self) -> float:
        """The baseline of the name, just above the circle."""
        return self.y - self.radius - 6

    def boxes(self) -> list[Box]:
        r = self.radius + 2
        return [Box(self.x - r, self.y - r, self.x + r, self.y + r),
                text_box(self.x, self.label_y, self.label, self.font, NAME_EM)]


@dataclass
class DrawnEdge:
    x1: float
    y1: float
    x2: float
    y2: float
    label: str
    lx: float
    ly: float

    def box(self) -> Box:
        return text_box(self.lx, self.ly, self.label, PREDICATE_FONT, PREDICATE_EM)


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
    """{"width", "height", "fonts", "nodes": [DrawnNode], "edges": [DrawnEdge]} for the template to draw."""
    centre = (0.0, 0.0)
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
    taken = [box for node in nodes for box in node.boxes()]
    edges = []
    for relation, _depth in neighbourhood.edges:
        if relation.subject_id in positions and relation.object_id in positions:
            edge = _edge(positions[relation.subject_id], positions[relation.object_id],
                         relation.predicate.replace("_", " "), centre, taken)
            taken.append(edge.box())
            edges.append(edge)
    return _cropped(nodes, edges, taken)


def _edge(start, end, label: str, centre, taken: list[Box]) -> DrawnEdge:
    """The edge with its label at the first spot (away from the crowded centre first) that covers nothing
    already drawn, else at the spot that covers least."""
    inner, outer = sorted([start, end], key=lambda p: math.dist(p, centre))
    best = None
    for spot in LABEL_SPOTS:
        for shift in LABEL_SHIFTS:
            x = inner[0] + spot * (outer[0] - inner[0])
            y = inner[1] + spot * (outer[1] - inner[1]) + shift
            edge = DrawnEdge(*start, *end, label, x, y)
            covered = sum(edge.box().overlap(box) for box in taken)
            if best is None or covered < best[0]:
                best = (covered, edge)
            if not covered:
                return edge
    return best[1]


def _cropped(nodes: list[DrawnNode], edges: list[DrawnEdge], boxes: list[Box]) -> dict:
    """Move the drawing so its content fits a box from (0, 0) with the root (at 0, 0 now) in the middle."""
    half_width = math.ceil(max(max(abs(box.left), abs(box.right)) for box in boxes) + MARGIN)
    half_height = math.ceil(max(max(abs(box.top), abs(box.bottom)) for box in boxes) + MARGIN)
    for node in nodes:
        node.x, node.y = node.x + half_width, node.y + half_height
    for edge in edges:
        edge.x1, edge.y1, edge.x2, edge.y2 = (edge.x1 + half_width, edge.y1 + half_height,
                                              edge.x2 + half_width, edge.y2 + half_height)
        edge.lx, edge.ly = edge.lx + half_width, edge.ly + half_height
    return {"width": 2 * half_width, "height": 2 * half_height,
            "fonts": {"name": NAME_FONT, "root": ROOT_FONT, "predicate": PREDICATE_FONT},
            "nodes": sorted(nodes, key=lambda n: n.depth, reverse=True), "edges": edges}
