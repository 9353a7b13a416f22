"""Fragmented people: suggest likely duplicate entity pairs, merge one entity into another.

A suggestion scores name/alias likeness (rapidfuzz plus initials and first-name
rules, see `entities.likeness`) and adds a bonus for relations both entities
share. Pairs that are clearly different people (conflicting full names, an edge
between them, different kinds) or that the user already said are different are
never suggested.

`entity_merge` moves everything that points at the loser onto the winner in one
transaction and writes an `entity_merge` audit event holding only public ids.
"""
from collections import defaultdict
from dataclasses import dataclass, field
from itertools import combinations

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from audit.labels import AuditAction
from audit.services import audit_record
from entities.likeness import best_likeness, full_names_conflict, name_tokens
from entities.models import (
    Alias,
    AliasOrigin,
    Entity,
    EntityKind,
    EntityMention,
    EntityReview,
    EntityReviewKind,
    Relation,
    RelationStatus,
)
from entities.names import is_role_phrase, normalize_name
from entities.signals import entity_merging
from recall_site.config import recall_setting


class MergeError(ValueError):
    """A merge that cannot be done (same entity, the user's own entity as loser, another user's entity)."""


@dataclass
class MergeSuggestion:
    left: Entity
    right: Entity
    score: float
    name_score: float
    left_name: str   # the most alike names of the two, as written
    right_name: str
    shared_relations: list[tuple[str, str, Entity]] = field(default_factory=list)  # (direction, predicate, other)
    shared_roles: list[str] = field(default_factory=list)
    flagged_ambiguous: bool = False


# ---------------------------------------------------------------- suggestions

def merge_suggestions(user_id: str, limit: int | None = None) -> list[MergeSuggestion]:
    """Likely duplicate pairs among the user's live entities, best first."""
    entities = {e.pk: e for e in Entity.objects.live().for_user(user_id).exclude(kind=EntityKind.SELF)}
    names, shown = _names_by_entity(user_id, entities)
    edges = _edges_by_entity(user_id, entities)
    reviews = _pair_reviews(user_id)
    minimum = recall_setting("entities.merge_suggestion_min_score")
    suggestions = []
    for left_id, right_id in _candidate_pairs(names, reviews):
        suggestion = _score_pair(entities[left_id], entities[right_id], names, edges, reviews)
        if suggestion and (suggestion.score >= minimum or suggestion.flagged_ambiguous):
            suggestion.left_name = shown.get(suggestion.left_name, suggestion.left_name)
            suggestion.right_name = shown.get(suggestion.right_name, suggestion.right_name)
            suggestions.append(suggestion)
    suggestions.sort(key=lambda s: (-s.score, s.left.canonical_name, s.right.canonical_name))
    return suggestions[: limit or recall_setting("entities.merge_suggestions_limit")]


def _names_by_entity(user_id, entities) -> tuple[dict[int, set[str]], dict[str, str]]:
    """Normalized names and aliases per entity, and how each normalized form is written."""
    names = {pk: {entity.normalized_name} - {""} for pk, entity in entities.items()}
    shown = {entity.normalized_name: entity.canonical_name for entity in entities.values()}
    for entity_id, normalized, text in Alias.objects.filter(user_id=user_id, entity_id__in=entities).values_list(
        "entity_id", "normalized", "alias"
    ):
        names[entity_id].add(normalized)
        shown.setdefault(normalized, text)
    return names, shown


def _edges_by_entity(user_id, entities) -> dict[int, set[tuple[str, str, int]]]:
    edges = defaultdict(set)
    active = Relation.objects.filter(user_id=user_id, status=RelationStatus.ACTIVE)
    for subject_id, predicate, object_id in active.values_list("subject_id", "predicate", "object_id"):
        edges[subject_id].add(("out", predicate, object_id))
        edges[object_id].add(("in", predicate, subject_id))
    return edges


def _pair_reviews(user_id) -> dict[frozenset, bool]:
    """Ambiguous-match reviews by entity pair → resolved? (resolved pairs were judged different)."""
    rows = EntityReview.objects.filter(
        user_id=user_id, kind=EntityReviewKind.AMBIGUOUS_MATCH, candidate__isnull=False
    ).values_list("entity_id", "candidate_id", "resolved_at")
    pairs = {}
    for entity_id, candidate_id, resolved_at in rows:
        key = frozenset((entity_id, candidate_id))
        pairs[key] = pairs.get(key, False) or resolved_at is not None
    return pairs


def _blocking_keys(normalized: str) -> set[str]:
    """Pairs are only scored when they share a key: a token, or a first name's first 3 letters."""
    tokens, _ = name_tokens(normalized)
    keys = {token for token in tokens if len(token) > 1}
    if tokens:
        keys.add(f"^{tokens[0][:3]}")
    return keys


def _candidate_pairs(names, reviews):
    blocks = defaultdict(set)
    for entity_id, entity_names in names.items():
        for name in entity_names:
            if not is_role_phrase(name):
                for key in _blocking_keys(name):
                    blocks[key].add(entity_id)
    pairs = {tuple(sorted(pair)) for members in blocks.values() for pair in combinations(members, 2)}
    pairs |= {tuple(sorted(pair)) for pair, resolved in reviews.items() if not resolved and len(pair) == 2}
    return sorted(pair for pair in pairs if all(pk in names for pk in pair))


def _score_pair(left, right, names, edges, reviews) -> MergeSuggestion | None:
    if left.kind != right.kind or reviews.get(frozenset((left.pk, right.pk))):
        return None
    if full_names_conflict(names[left.pk], names[right.pk]):
        return None
    if any(other in (left.pk, right.pk) for _d, _p, other in edges[left.pk] | edges[right.pk]):
        return None  # an edge between the two: two different people
    name_score, left_name, right_name = best_likeness(names[left.pk], names[right.pk])
    flagged = frozenset((left.pk, right.pk)) in reviews
    if name_score == 0 and not flagged:
        return None
    shared = sorted(edges[left.pk] & edges[right.pk])
    roles = sorted(n for n in names[left.pk] & names[right.pk] if is_role_phrase(n))
    bonus = min(
        recall_setting("entities.merge_shared_relation_max_bonus"),
        recall_setting("entities.merge_shared_relation_bonus") * (len(shared) + len(roles)),
    )
    others = Entity.objects.in_bulk([other for _d, _p, other in shared])
    return MergeSuggestion(
        left=left, right=right, score=round(min(1.0, name_score + bonus), 3), name_score=round(name_score, 3),
        left_name=left_name, right_name=right_name,
        shared_relations=[(d, p, others[o]) for d, p, o in shared], shared_roles=roles, flagged_ambiguous=flagged,
    )


# ---------------------------------------------------------------------- merge

@transaction.atomic
def entity_merge(*, user_id: str, winner: Entity, loser: Entity, actor: str) -> dict:
    """Merge `loser` into `winner`: aliases, mentions, relations, reviews, and — through `entity_merging` —
    what other apps point at it (memory links and subjects).

    Returns the counts written to the audit event.
    """
    winner, loser = _locked_pair(user_id, winner, loser)
    counts = {
        "aliases_added": _move_aliases(winner, loser),
        "mentions": EntityMention.objects.filter(entity=loser).update(entity=winner),
        **_move_relations(winner, loser),
        "reviews": _move_reviews(winner, loser),
    }
    for _receiver, moved in entity_merging.send(sender=Entity, winner=winner, loser=loser):
        counts |= moved
    if loser.last_mentioned_at and (not winner.last_mentioned_at or loser.last_mentioned_at > winner.last_mentioned_at):
        winner.last_mentioned_at = loser.last_mentioned_at
        winner.save(update_fields=["last_mentioned_at"])
    loser_public_id = loser.public_id
    loser.delete()
    audit_record(actor=actor, action=AuditAction.ENTITY_MERGE, user_id=user_id,
                 target_ids={"winner": winner.public_id, "loser": loser_public_id}, counts=counts)
    return counts


def _locked_pair(user_id, winner, loser):
    if winner.pk == loser.pk:
        raise MergeError("An entity cannot be merged into itself.")
    locked = Entity.objects.select_for_update().live().for_user(user_id).in_bulk([winner.pk, loser.pk])
    if len(locked) != 2:
        raise MergeError("Both entities must be live entities of this user.")
    winner, loser = locked[winner.pk], locked[loser.pk]
    if loser.kind == EntityKind.SELF:
        raise MergeError("The user's own entity can only be the winner of a merge.")
    return winner, loser


def _move_aliases(winner, loser) -> int:
    known = set(winner.aliases.values_list("normalized", flat=True)) | {winner.normalized_name}
    forms = [(alias.alias, alias.normalized, alias.origin) for alias in loser.aliases.all()]
    if loser.canonical_name:
        forms.append((loser.canonical_name, normalize_name(loser.canonical_name), AliasOrigin.MERGE))
    added = []
    for text, normalized, origin in forms:
        if normalized and normalized not in known:
            known.add(normalized)
            # Role phrases keep their origin (they mean "my manager"); names record the merge.
            kept_origin = origin if origin == AliasOrigin.ROLE else AliasOrigin.MERGE
            added.append(Alias(user_id=winner.user_id, entity=winner, alias=text, normalized=normalized,
                               origin=kept_origin))
    Alias.objects.bulk_create(added)
    return len(added)


def _move_relations(winner, loser) -> dict:
    moved = deduplicated = self_loops = 0
    for relation in Relation.objects.select_for_update().filter(Q(subject=loser) | Q(object=loser)):
        subject_id = winner.pk if relation.subject_id == loser.pk else relation.subject_id
        object_id = winner.pk if relation.object_id == loser.pk else relation.object_id
        if subject_id == object_id:
            relation.delete()
            self_loops += 1
            continue
        twin = _active_twin(relation, subject_id, object_id)
        if twin:
            twin.confidence = max(twin.confidence, relation.confidence)
            twin.save(update_fields=["confidence"])
            relation.delete()
            deduplicated += 1
            continue
        relation.subject_id, relation.object_id = subject_id, object_id
        relation.save(update_fields=["subject", "object"])
        moved += 1
    return {"relations_moved": moved, "relations_deduplicated": deduplicated,
            "relations_dropped_self_loops": self_loops}


def _active_twin(relation, subject_id, object_id) -> Relation | None:
    if relation.status != RelationStatus.ACTIVE:
        return None
    return (Relation.objects.filter(subject_id=subject_id, predicate=relation.predicate, object_id=object_id,
                                    status=RelationStatus.ACTIVE).exclude(pk=relation.pk).first())


def _move_reviews(winner, loser) -> int:
    """Reviews about the merged pair are answered by the merge; others follow the winner."""
    pair = Q(entity=winner, candidate=loser) | Q(entity=loser, candidate=winner)
    EntityReview.objects.filter(pair).delete()
    moved = 0
    for review in EntityReview.objects.filter(Q(entity=loser) | Q(candidate=loser)):
        review.entity_id = winner.pk if review.entity_id == loser.pk else review.entity_id
        review.candidate_id = winner.pk if review.candidate_id == loser.pk else review.candidate_id
        duplicate = EntityReview.objects.filter(
            entity_id=review.entity_id, candidate_id=review.candidate_id, kind=review.kind,
            resolved_at__isnull=review.resolved_at is None,
        ).exclude(pk=review.pk).exists()
        if duplicate:
            review.delete()
        else:
            review.save(update_fields=["entity", "candidate"])
            moved += 1
    return moved


@transaction.atomic
def merge_dismiss(*, user_id: str, left: Entity, right: Entity, actor: str) -> EntityReview:
    """Record that two entities are different people, so the pair is no longer suggested."""
    if left.pk == right.pk or {left.user_id, right.user_id} != {user_id}:
        raise MergeError("Both entities must be two different entities of this user.")
    review = (EntityReview.objects.filter(kind=EntityReviewKind.AMBIGUOUS_MATCH)
              .filter(Q(entity=left, candidate=right) | Q(entity=right, candidate=left)).first())
    if review is None:
        review = EntityReview(user_id=user_id, kind=EntityReviewKind.AMBIGUOUS_MATCH, entity=left, candidate=right)
    review.resolved_at = timezone.now()
    review.save()
    audit_record(actor=actor, action=AuditAction.ENTITY_MERGE_DISMISSED, user_id=user_id,
                 target_ids={"entities": [left.public_id, right.public_id]})
    return review
