"""Entity resolution and graph writes: mentions → entity ids, aliases, relations, the self entity.

Resolution order: exact name → normalized name → alias → first-name/partial → fuzzy
(rapidfuzz). Two different entities matching equally well is reported as
ambiguous instead of being merged blindly. A mention made only of pronouns,
question words or sentence starters ("What", "Hey", "Thanks") never resolves
and never becomes an entity.

The write pipeline calls the resolver, `self_entity`, `mentions_record` and
`relation_upsert` for nearly every message, so their statements are hand-written
SQL (read back with `models_from_sql`): compiling the equivalent querysets cost
the ORM more than PostgreSQL takes to run them.
"""
from dataclasses import dataclass, field

from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from rapidfuzz import fuzz, process

from entities.models import (
    Alias, AliasOrigin, Entity, EntityKind, EntityMention, EntityReview, EntityReviewKind, Relation, RelationStatus,
    UnresolvedReference,
)
from entities.names import is_not_a_name, is_role_phrase, normalize_name, strip_accents, without_title
from recall_site.config import recall_setting
from recall_site.raw_models import columns, models_from_sql

SELF_NAME = "me"
# A user has one of each of these at a time; assigning the role moves the alias.
EXCLUSIVE_ROLE_ALIASES = {
    "my manager", "my partner", "my wife", "my husband", "my girlfriend", "my boyfriend", "my mother", "my father",
}
ENTITY_FIELDS = Entity._meta.concrete_fields  # what the hand-written entity reads select


@dataclass
class Resolution:
    mention: str
    entity: Entity | None
    method: str  # exact | normalized | alias | partial | fuzzy | ambiguous | unresolved
    score: float = 0.0
    candidates: list[Entity] = field(default_factory=list)
    known_form: bool = False  # the mention's normalized form is already one of the entity's names or aliases

    @property
    def resolved(self) -> bool:
        return self.entity is not None


def self_entity(user_id: str) -> Entity:
    """The entity that stands for the user themself (created on first use)."""
    # At most one live self entity per user (one_self_entity_per_user).
    sql = (f"SELECT {columns(ENTITY_FIELDS)} FROM {Entity._meta.db_table}"
           " WHERE user_id = %s AND kind = %s AND deleted_at IS NULL")
    found = models_from_sql(Entity, ENTITY_FIELDS, sql, [user_id, EntityKind.SELF])
    if found:
        return found[0]
    try:
        with transaction.atomic():
            return Entity.objects.create(
                user_id=user_id, kind=EntityKind.SELF, canonical_name=SELF_NAME, normalized_name=SELF_NAME
            )
    except IntegrityError:
        return Entity.objects.live().get(user_id=user_id, kind=EntityKind.SELF)


def resolve_mention(user_id: str, mention: str) -> Resolution:
    """Map a mention ("Sarah", "my boss", "Dr. Chen") to one of the user's live entities."""
    normalized = normalize_name(mention)
    if is_not_a_name(normalized):  # "What", "Hey", "Thanks": a partial or fuzzy match would be a false hit
        return Resolution(mention, None, "unresolved")
    # One query for the three direct methods, then the most specific non-empty one decides.
    direct = _direct_matches(user_id, mention.strip(), normalized)
    for method, matches in (
        ("exact", [e for e in direct if e.canonical_name == mention.strip()]),
        ("normalized", [e for e in direct if e.normalized_name == normalized]),
        ("alias", direct),
    ):
        found = _single(mention, matches, method, 1.0)
        if found:
            found.known_form = bool(found.entity) and (method != "alias" or found.entity.has_alias)
            return found
    if is_role_phrase(normalized):
        return Resolution(mention, None, "unresolved")
    names = _name_table(user_id)
    return _partial_match(user_id, names, mention, normalized) or _fuzzy_match(user_id, names, mention, normalized)


def _direct_matches(user_id: str, name: str, normalized: str) -> list[Entity]:
    """Up to 10 live non-self entities named `name`, normalized-named `normalized`, or with an alias of a
    variant of it; each with `has_alias`: whether `normalized` itself is one of its aliases."""
    entity, alias = Entity._meta.db_table, Alias._meta.db_table
    sql = f"""
        SELECT {columns(ENTITY_FIELDS, "e")},
               EXISTS (SELECT 1 FROM {alias} a WHERE a.entity_id = e.id AND a.normalized = %s) AS has_alias
        FROM {entity} e
        WHERE e.user_id = %s AND e.deleted_at IS NULL AND e.kind <> %s
          AND (e.canonical_name = %s OR e.normalized_name = %s
               OR e.id IN (SELECT entity_id FROM {alias} WHERE user_id = %s AND normalized = ANY(%s)))
        LIMIT 10"""
    params = [normalized, user_id, EntityKind.SELF, name, normalized, user_id, sorted(_variants(normalized))]
    return models_from_sql(Entity, ENTITY_FIELDS, sql, params, extra=("has_alias",))


def _variants(normalized: str) -> set[str]:
    return {normalized, strip_accents(normalized), without_title(normalized), strip_accents(without_title(normalized))}


def _single(mention, matches, method, score):
    if len(matches) == 1:
        return Resolution(mention, matches[0], method, score)
    if len(matches) > 1:
        return Resolution(mention, None, "ambiguous", score, matches)
    return None


def _partial_match(user_id, names, mention, normalized):
    """"Sarah" ↔ "Sarah Chen", "Chen" (after a title: "Dr. Chen") ↔ "Sarah Chen"."""
    bare = strip_accents(without_title(normalized))
    tokens = bare.split(" ")
    titled = bare != strip_accents(normalized)
    full_names = _full_names(names) if len(tokens) > 1 else {}
    hits = {}
    for name, entity_id in names:
        name_tokens = strip_accents(name).split(" ")
        if len(tokens) == 1 and len(name_tokens) > 1:
            if (not titled and tokens[0] == name_tokens[0]) or (titled and tokens[0] == name_tokens[-1]):
                hits[entity_id] = name
        elif len(tokens) > 1 and len(name_tokens) == 1 and tokens[0] == name_tokens[0]:
            # "Sarah Miller" must not land on "Sarah" when that Sarah is known to be Sarah Chen.
            if not full_names.get(entity_id, set()) - {bare}:
                hits[entity_id] = name
    if not hits:
        return None
    return _single(mention, _live_entities(user_id, hits), "partial", 0.9)


def _fuzzy_match(user_id, names, mention, normalized):
    threshold = recall_setting("memory.fuzzy_match_threshold")
    if not names:
        return Resolution(mention, None, "unresolved")
    choices = [strip_accents(name) for name, _ in names]
    results = process.extract(strip_accents(normalized), choices, scorer=fuzz.ratio, limit=5)
    best_by_entity = {}
    for _choice, score, index in results:
        entity_id = names[index][1]
        if score >= threshold and score > best_by_entity.get(entity_id, 0):
            best_by_entity[entity_id] = score
    if not best_by_entity:
        return Resolution(mention, None, "unresolved")
    ranked = sorted(best_by_entity.items(), key=lambda item: -item[1])
    entities = {entity.pk: entity for entity in _live_entities(user_id, [entity_id for entity_id, _ in ranked])}
    if len(ranked) > 1 and ranked[0][1] - ranked[1][1] < 3:
        return Resolution(mention, None, "ambiguous", ranked[0][1] / 100, [entities[e] for e, _ in ranked])
    return Resolution(mention, entities[ranked[0][0]], "fuzzy", ranked[0][1] / 100)


def _full_names(names) -> dict[int, set[str]]:
    """Multi-word names (first + surname) each entity is known by."""
    full: dict[int, set[str]] = {}
    for name, entity_id in names:
        if " " in name:
            full.setdefault(entity_id, set()).add(strip_accents(name))
    return full


def _live_entities(user_id: str, ids) -> list[Entity]:
    """The user's live non-self entities among `ids`, oldest first."""
    sql = (f"SELECT {columns(ENTITY_FIELDS)} FROM {Entity._meta.db_table}"
           " WHERE user_id = %s AND id = ANY(%s) AND deleted_at IS NULL AND kind <> %s ORDER BY id")
    return models_from_sql(Entity, ENTITY_FIELDS, sql, [user_id, list(ids), EntityKind.SELF])


# Every live non-self entity's normalized name and aliases.
_NAME_TABLE_SQL = f"""
SELECT normalized_name, id FROM {Entity._meta.db_table}
WHERE user_id = %(user_id)s AND deleted_at IS NULL AND kind <> %(self)s
UNION ALL
SELECT alias.normalized, alias.entity_id
FROM {Alias._meta.db_table} alias JOIN {Entity._meta.db_table} entity ON entity.id = alias.entity_id
WHERE alias.user_id = %(user_id)s AND entity.deleted_at IS NULL AND entity.kind <> %(self)s
"""


def _name_table(user_id):
    """(normalized name or alias, entity id) for every live non-self entity of the user."""
    with connection.cursor() as cursor:
        cursor.execute(_NAME_TABLE_SQL, {"user_id": user_id, "self": EntityKind.SELF.value})
        names = cursor.fetchall()
    return [(name, pk) for name, pk in names if name and not is_role_phrase(name)]


def entity_create(*, user_id: str, name: str, kind: str = EntityKind.PERSON,
                  origin: str = AliasOrigin.USER_MENTION) -> Entity:
    """A new entity, or the live one of that name and kind when a parallel write made it first
    (the constraint one_live_entity_per_name decides)."""
    normalized = normalize_name(name)
    try:
        with transaction.atomic():
            entity = Entity.objects.create(user_id=user_id, kind=kind, canonical_name=name.strip(),
                                           normalized_name=normalized)
    except IntegrityError:
        entity = Entity.objects.live().get(user_id=user_id, kind=kind, normalized_name=normalized)
    alias_add(entity=entity, alias=name, origin=origin)
    return entity


def alias_add(*, entity: Entity, alias: str, origin: str = AliasOrigin.USER_MENTION) -> Alias | None:
    """Add an alias unless the entity already has that normalized form."""
    normalized = normalize_name(alias)
    if not normalized:
        return None
    created_alias, _ = Alias.objects.get_or_create(
        entity=entity,
        normalized=normalized,
        defaults={"user_id": entity.user_id, "alias": alias.strip(), "origin": origin},
    )
    return created_alias


def resolve_or_create(*, user_id: str, mention: str, kind: str = EntityKind.PERSON,
                      origin: str = AliasOrigin.USER_MENTION) -> Resolution:
    """Resolve a mention; a new form of a known name becomes an alias, an unknown name a new entity.

    Ambiguous mentions are returned unresolved so the caller can ask for review.
    """
    resolution = resolve_mention(user_id, mention)
    if resolution.entity:
        if not resolution.known_form:  # a new form of a known name (the canonical name is already an alias)
            alias_add(entity=resolution.entity, alias=mention, origin=origin)
        if resolution.method == "partial":
            entity_name_complete(entity=resolution.entity, mention=mention)
        return resolution
    normalized = normalize_name(mention)
    if resolution.method == "ambiguous" or is_role_phrase(normalized) or is_not_a_name(normalized):
        return resolution
    return Resolution(mention, entity_create(user_id=user_id, name=mention, kind=kind, origin=origin), "new", 1.0)


def entity_name_complete(*, entity: Entity, mention: str) -> Entity:
    """"Sarah" first, "Sarah Chen" later: the fuller form becomes the canonical name (the old one stays an alias)."""
    normalized = normalize_name(mention)
    taken = Entity.objects.live().filter(user_id=entity.user_id, kind=entity.kind, normalized_name=normalized)
    if " " not in entity.normalized_name and normalized.startswith(f"{entity.normalized_name} ") and not taken.exists():
        entity.canonical_name, entity.normalized_name = mention.strip(), normalized
        Entity.objects.filter(pk=entity.pk).update(canonical_name=entity.canonical_name, normalized_name=normalized)
    return entity


def role_alias_assign(*, entity: Entity, role_phrase: str) -> Alias | None:
    """"Sarah is my manager": "my manager" becomes Sarah's role alias.

    Roles one person holds at a time (EXCLUSIVE_ROLE_ALIASES) move from the previous holder.
    """
    normalized = normalize_name(role_phrase)
    if normalized in EXCLUSIVE_ROLE_ALIASES:
        Alias.objects.filter(user_id=entity.user_id, normalized=normalized).exclude(entity=entity).delete()
    return alias_add(entity=entity, alias=role_phrase, origin=AliasOrigin.ROLE)


def ambiguity_review_record(*, user_id: str, candidates: list[Entity]) -> EntityReview | None:
    """Ask the user whether two same-named entities are one person (never merged blindly). Stores no names."""
    if len(candidates) < 2:
        return None
    first, second = sorted(candidates[:2], key=lambda entity: entity.pk)
    review, _ = EntityReview.objects.get_or_create(
        user_id=user_id, kind=EntityReviewKind.AMBIGUOUS_MATCH, entity=first, candidate=second,
        resolved_at__isnull=True,
    )
    return review


def mentions_record(*, entities: list[Entity], session_id: str, at=None, source_message_id: str = "") -> None:
    """The entities were mentioned in a message: `last_mentioned_at` and one EntityMention each, in one statement."""
    if not entities:
        return
    at = at or timezone.now()
    sql = f"""
        WITH touched AS (UPDATE {Entity._meta.db_table} SET last_mentioned_at = %s WHERE id = ANY(%s)
                         RETURNING id, user_id)
        INSERT INTO {EntityMention._meta.db_table} (user_id, entity_id, session_id, mentioned_at, source_message_id)
        SELECT user_id, id, %s, %s, %s FROM touched ORDER BY id"""
    with connection.cursor() as cursor:
        cursor.execute(sql, [at, [entity.pk for entity in entities], session_id, at, source_message_id])


def unresolved_record(*, user_id: str, session_id: str, mention: str, reason: str = "no_match") -> UnresolvedReference:
    return UnresolvedReference.objects.create(user_id=user_id, session_id=session_id, mention=mention, reason=reason)


def relation_upsert(*, subject: Entity, predicate: str, object: Entity, confidence: float = 0.9,
                    session_id: str = "", valid_from=None) -> Relation:
    """Add the active edge subject —predicate→ object, or raise the confidence of the one already there."""
    relation = Relation(user_id=subject.user_id, subject=subject, predicate=predicate, object=object,
                        confidence=confidence, session_id=session_id, valid_from=valid_from)
    if _insert_unless_active(relation):
        return relation
    relation = Relation.objects.get(subject=subject, predicate=predicate, object=object,
                                    status=RelationStatus.ACTIVE)
    if confidence > relation.confidence:
        relation.confidence = confidence
        relation.save(update_fields=["confidence"])
    return relation


def _insert_unless_active(relation: Relation) -> bool:
    """Insert a new edge unless the same one is active (unique_active_relation): one statement, no savepoint."""
    fields = [f for f in Relation._meta.concrete_fields if not f.primary_key]
    sql = (f"INSERT INTO {Relation._meta.db_table} ({', '.join(f.column for f in fields)})"
           f" VALUES ({', '.join(['%s'] * len(fields))}) ON CONFLICT DO NOTHING RETURNING id")
    with connection.cursor() as cursor:
        cursor.execute(sql, [f.get_db_prep_save(f.pre_save(relation, True), connection) for f in fields])
        row = cursor.fetchone()
    if row is None:
        return False
    relation.pk, relation._state.adding, relation._state.db = row[0], False, connection.alias  # as bulk_create does
    return True


def relation_supersede_others(*, subject: Entity, predicate: str, keep: Entity, at=None) -> int:
    """A new value for a single-valued edge (me lives_in Munich) retires the old ones (me lives_in Berlin)."""
    return (
        Relation.objects.filter(subject=subject, predicate=predicate, status=RelationStatus.ACTIVE)
        .exclude(object=keep)
        .update(status=RelationStatus.SUPERSEDED, valid_to=at or timezone.now())
    )
