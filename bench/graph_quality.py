"""How well Recall's entity graph matches a hand-labelled one (bench/graph_labels/, LABELLING.md there).

`graph_scores(labels, entities, relations)` compares one conversation's labels with a snapshot of the
graph Recall built for it, and counts:
- entity precision: live non-self entities that are real (match a labelled entity, doubtful ones too);
- recurring recall: labelled entities mentioned in two or more sessions (doubtful ones left out) that some
  entity matches;
- kind accuracy: matched entities whose kind is the labelled one;
- relation recall: labelled relations that matter (every predicate but `other`) with an edge between the
  right ends in either direction, and with the same predicate (an inverse or a symmetric one read so);
- edge precision: Recall's edges between two real entities that a labelled relation (any predicate)
  connects.

An entity matches a label by a name or alias (case and punctuation aside; a one-word name matches the
first word of a labelled person's full name), and an unnamed labelled individual ("melanie_husband":
role husband, owner melanie) by a name of the form "Melanie's husband" or a role alias of the owner.
"""
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

LABELS_DIR = Path(__file__).resolve().parent / "graph_labels"
SYMMETRIC = {"partner_of", "spouse_of", "sibling_of", "friend_of", "colleague_of"}
INVERSE = {"parent_of": "child_of", "child_of": "parent_of"}
ROLE_SAME = {"mom": "mother", "mum": "mother", "dad": "father", "hubby": "husband", "grandma": "grandmother",
             "grandpa": "grandfather", "bro": "brother", "sis": "sister"}


@dataclass
class GraphEntity:
    id: int
    kind: str
    name: str
    aliases: list[str] = field(default_factory=list)


@dataclass
class GraphEdge:
    subject: int
    predicate: str
    object: int


def load_labels(index: int) -> dict | None:
    path = LABELS_DIR / f"conv-{index}.json"
    return json.loads(path.read_text()) if path.exists() else None


def norm(text: str) -> str:
    text = re.sub(r"[^\w\s]", " ", text.casefold().replace("’", "'").replace("'s ", " s "))
    words = [ROLE_SAME.get(word, word) for word in text.split()]
    return " ".join(words[1:] if words[:1] == ["the"] else words)


def _label_forms(label: dict, by_id: dict) -> set[str]:
    """The normalised forms a Recall entity may carry to be this label."""
    forms = set()
    if label.get("name"):
        forms |= {norm(label["name"])} | {norm(a) for a in label.get("aliases", []) if not a.lower().startswith("my ")}
    else:
        owner = by_id.get(label.get("owner", ""), {})
        owner_names = [owner.get("name") or ""] + owner.get("aliases", []) if owner else []
        roles = {label.get("role", "")} | {a[3:] for a in label.get("aliases", []) if a.lower().startswith("my ")}
        forms |= {norm(f"{o} s {r}") for o in owner_names if o for r in roles if r}
    return {form for form in forms if form}


def _matches(entity: GraphEntity, label: dict, forms: set[str]) -> bool:
    mine = {norm(entity.name)} | {norm(alias) for alias in entity.aliases}
    if mine & forms:
        return True
    if label.get("name") and label["kind"] in ("person", "pet") and " " in norm(label["name"]):
        first = norm(label["name"]).split(" ")[0]
        return first in mine
    return False


def matches(labels: dict, entities: list[GraphEntity]) -> dict[int, str]:
    """Recall entity id → the id of the label it is (each entity to its first matching label)."""
    by_id = {label["id"]: label for label in labels["entities"]}
    forms = {label["id"]: _label_forms(label, by_id) for label in labels["entities"]}
    matched = {}
    for entity in entities:
        for label in labels["entities"]:
            if _matches(entity, label, forms[label["id"]]):
                matched[entity.id] = label["id"]
                break
    return matched


def graph_details(labels: dict, entities: list[GraphEntity], edges: list[GraphEdge]) -> list[str]:
    """Lines for a developer: entities that match no label, kinds that differ, edges no label has."""
    by_id = {label["id"]: label for label in labels["entities"]}
    matched, names = matches(labels, entities), {entity.id: entity.name for entity in entities}
    pairs = {frozenset((r["subject"], r["object"])) for r in labels["relations"]}
    return [
        "  not real: " + ", ".join(f"{e.name} ({e.kind})" for e in entities if e.id not in matched),
        "  kind: " + ", ".join(f"{e.name} {e.kind}≠{by_id[matched[e.id]]['kind']}" for e in entities
                               if e.id in matched and e.kind != by_id[matched[e.id]]["kind"]),
        "  edges not labelled: " + ", ".join(
            f"{names.get(e.subject, '?')} {e.predicate} {names.get(e.object, '?')}" for e in edges
            if frozenset((matched.get(e.subject), matched.get(e.object))) not in pairs),
        "  recurring not found: " + ", ".join(
            label["id"] for label in labels["entities"] if len(label["sessions"]) >= 2 and not label.get("doubtful")
            and label["id"] not in set(matched.values())),
        "  relations not found: " + ", ".join(
            f"{r['subject']} {r['predicate']} {r['object']}" for r in labels["relations"] if r["predicate"] != "other"
            and not any({matched.get(e.subject), matched.get(e.object)} == {r["subject"], r["object"]} for e in edges)),
    ]


def graph_scores(labels: dict, entities: list[GraphEntity], edges: list[GraphEdge]) -> Counter:
    """Counts for the ratios above (numerators and denominators), to add up over conversations."""
    by_id = {label["id"]: label for label in labels["entities"]}
    matched = matches(labels, entities)
    counts = Counter(entities=len(entities), real=len(matched))
    found_labels = set(matched.values())
    recurring = [label for label in labels["entities"] if len(label["sessions"]) >= 2 and not label.get("doubtful")]
    counts["recurring"] = len(recurring)
    counts["recurring_found"] = sum(label["id"] in found_labels for label in recurring)
    kinds = {entity.id: entity.kind for entity in entities}
    counts["kind_right"] = sum(kinds[eid] == by_id[lid]["kind"] for eid, lid in matched.items())
    labelled_pairs = {}
    for relation in labels["relations"]:
        labelled_pairs.setdefault(frozenset((relation["subject"], relation["object"])), []).append(relation)
    edge_ends = [(matched.get(edge.subject), edge.predicate, matched.get(edge.object)) for edge in edges]
    counts["edges"] = len(edges)
    counts["edges_right"] = sum(bool(s and o and frozenset((s, o)) in labelled_pairs) for s, _, o in edge_ends)
    mattering = [relation for relation in labels["relations"] if relation["predicate"] != "other"]
    counts["relations"] = len(mattering)
    for relation in mattering:
        between = [(s, p, o) for s, p, o in edge_ends if {s, o} == {relation["subject"], relation["object"]}]
        counts["relations_found"] += bool(between)
        counts["relations_same"] += any(_same_predicate(relation, s, p, o) for s, p, o in between)
    return counts


def _same_predicate(relation: dict, subject: str, predicate: str, obj: str) -> bool:
    wanted = relation["predicate"]
    if wanted in SYMMETRIC:
        return predicate == wanted
    forward = (subject, obj) == (relation["subject"], relation["object"])
    return (predicate == wanted and forward) or (predicate == INVERSE.get(wanted) and not forward)


def ratios(counts: Counter) -> dict[str, float]:
    def share(a, b):
        return counts[a] / counts[b] if counts[b] else 0.0

    return {
        "entity precision": share("real", "entities"), "recurring recall": share("recurring_found", "recurring"),
        "kind accuracy": share("kind_right", "real"), "relation recall": share("relations_found", "relations"),
        "same predicate": share("relations_same", "relations"), "edge precision": share("edges_right", "edges"),
    }


def graph_snapshot(user_id: str) -> tuple[list[GraphEntity], list[GraphEdge]]:
    """The user's live non-self entities (with aliases) and active relations between live entities, as
    `graph_scores` reads them."""
    from entities.models import Entity, EntityKind, Relation, RelationStatus

    rows = Entity.objects.live().for_user(user_id).prefetch_related("aliases")
    entities = [GraphEntity(e.pk, e.kind, e.canonical_name, [a.alias for a in e.aliases.all()]) for e in rows
                if e.kind != EntityKind.SELF]
    live = set(rows.values_list("pk", flat=True))  # an edge to the user's own entity counts (as wrong here)
    edges = [GraphEdge(s, p, o) for s, p, o in Relation.objects.filter(user_id=user_id, status=RelationStatus.ACTIVE)
             .values_list("subject_id", "predicate", "object_id") if s in live and o in live]
    return entities, edges
