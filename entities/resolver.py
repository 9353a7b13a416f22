"""Entity resolution: a mention ("Sarah", "my boss", "Dr. Chen") → one of the user's entities.

Resolution order: exact name → normalized name → alias → first-name/partial → fuzzy
(rapidfuzz). Two different entities matching equally well is reported as
ambiguous instead of being merged blindly. A mention made only of pronouns,
question words or sentence starters ("What", "Hey", "Thanks") never resolves
and never becomes an entity. `resolve_or_create` turns a new form of a known name
into an alias and an unknown name into a new entity.

The write pipeline resolves nearly every mention of every message, so the lookups
are hand-written SQL (read back with `models_from_sql`).
"""
from collections import defaultdict
from dataclasses import dataclass, field

from django.db import connection
from rapidfuzz import fuzz, process

from entities.likeness import names_conflict
from entities.models import Alias, AliasOrigin, Entity, EntityKind
from entities.names import is_not_a_name, is_role_phrase, normalize_name, strip_accents, without_title
from entities.services import ENTITY_FIELDS, alias_add, entity_create, entity_kind_correct, entity_name_complete
from recall_site.config import recall_setting
from recall_site.raw_models import columns, models_from_rows, models_from_sql


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


def resolve_mention(user_id: str, mention: str, direct: "DirectMatches | None" = None) -> Resolution:
    """Map a mention ("Sarah", "my boss", "Dr. Chen") to one of the user's live entities. `direct`: the direct
    matches of a list of mentions this one is in, already read (search reads them with the query's words)."""
    normalized = normalize_name(mention)
    if is_not_a_name(normalized):  # "What", "Hey", "Thanks": a partial or fuzzy match would be a false hit
        return Resolution(mention, None, "unresolved")
    # One query for the three direct methods, then the most specific non-empty one decides.
    if direct is None:
        direct = DirectMatches.read(user_id, [mention])
    found = resolve_direct(mention, direct.of(mention))
    if found:
        return found
    if is_role_phrase(normalized):
        return Resolution(mention, None, "unresolved")
    return resolve_by_likeness(mention, NameTable(_name_table(user_id)), lambda ids: _live_entities(user_id, ids))


def resolve_direct(mention: str, named: list[Entity]) -> Resolution | None:
    """The exact, normalized or alias match among the entities `mention` names directly (DirectMatches.of)."""
    normalized = normalize_name(mention)
    for method, matches in (
        ("exact", [e for e in named if e.canonical_name == mention.strip()]),
        ("normalized", [e for e in named if e.normalized_name == normalized]),
        ("alias", named),
    ):
        found = single_match(mention, matches, method, 1.0)
        if found:
            found.known_form = bool(found.entity) and (method != "alias" or getattr(found.entity, "has_alias", True))
            return found
    return None


def resolve_by_likeness(mention: str, names: "NameTable", load) -> Resolution:
    """The partial, else the fuzzy match of a mention no name or alias names directly; `load(ids)` gives the
    live entities among those ids, oldest first."""
    normalized = normalize_name(mention)
    return _partial_match(names, mention, normalized, load) or _fuzzy_match(names, mention, normalized, load)


# The user's live non-self entities named by some mentions: exactly, once normalised, or by an alias of a
# variant of one (accents, titles); each with the normalised forms of its aliases among those variants.
_DIRECT_SQL = f"""
SELECT {columns(ENTITY_FIELDS, "e")},
       ARRAY(SELECT a.normalized FROM {Alias._meta.db_table} a
             WHERE a.entity_id = e.id AND a.normalized = ANY(%(direct_variants)s::text[])) AS alias_forms
FROM {Entity._meta.db_table} e
WHERE e.user_id = %(direct_user_id)s AND e.deleted_at IS NULL AND e.kind <> %(direct_self)s
  AND (e.canonical_name = ANY(%(direct_names)s::text[]) OR e.normalized_name = ANY(%(direct_normalized)s::text[])
       OR e.id IN (SELECT entity_id FROM {Alias._meta.db_table}
                   WHERE user_id = %(direct_user_id)s AND normalized = ANY(%(direct_variants)s::text[])))
ORDER BY e.id
"""


class DirectMatches:
    """The entities some mentions name directly (by name, normalised name or alias), read in one query."""

    LIMIT = 10  # per mention

    def __init__(self, rows: list[tuple]):
        self.rows = rows  # _DIRECT_SQL's: the entity's columns, then its alias forms

    @staticmethod
    def query(user_id: str, mentions) -> tuple[str, dict]:
        """(sql, params) of _DIRECT_SQL for `mentions`, for a statement that reads it with other things."""
        normalized = {normalize_name(mention) for mention in mentions}
        return _DIRECT_SQL, {
            "direct_user_id": user_id, "direct_self": EntityKind.SELF.value,
            "direct_names": sorted({mention.strip() for mention in mentions}), "direct_normalized": sorted(normalized),
            "direct_variants": sorted(set().union(*map(name_variants, normalized))) if normalized else [],
        }

    @classmethod
    def read(cls, user_id: str, mentions) -> "DirectMatches":
        with connection.cursor() as cursor:
            cursor.execute(*cls.query(user_id, mentions))
            return cls(cursor.fetchall())

    def of(self, mention: str) -> list[Entity]:
        """Up to LIMIT live non-self entities named `mention`, normalized-named like it, or with an alias of a
        variant of it; each with `has_alias`: whether its normalized form itself is one of its aliases."""
        name, normalized = mention.strip(), normalize_name(mention)
        variants = name_variants(normalized)
        width = len(ENTITY_FIELDS)
        names = [field.attname for field in ENTITY_FIELDS]
        canonical, normal = names.index("canonical_name"), names.index("normalized_name")
        rows = [row for row in self.rows
                if row[canonical] == name or row[normal] == normalized or variants & set(row[width])][:self.LIMIT]
        entities = models_from_rows(Entity, ENTITY_FIELDS, [row[:width] for row in rows])
        for entity, row in zip(entities, rows):
            entity.has_alias = normalized in row[width]
        return entities


def name_variants(normalized: str) -> set[str]:
    return {normalized, strip_accents(normalized), without_title(normalized), strip_accents(without_title(normalized))}


def single_match(mention, matches, method, score):
    if len(matches) == 1:
        return Resolution(mention, matches[0], method, score)
    if len(matches) > 1:
        return Resolution(mention, None, "ambiguous", score, matches)
    return None


class NameTable:
    """(normalized name or alias, entity id) of a user's live non-self entities, indexed for the partial and
    fuzzy matches. resolve_mention reads one per mention; a batch (the contacts import) reads one and `add`s
    the names it writes: those take part in partial matches, while fuzzy matching stays on the names read."""

    def __init__(self, rows):
        self.by_first: dict[str, dict] = defaultdict(dict)   # "sarah" -> {id: "sarah chen"}: multi-word names
        self.by_last: dict[str, dict] = defaultdict(dict)    # "chen" -> {id: "sarah chen"}
        self.single: dict[str, dict] = defaultdict(dict)     # "sarah" -> {id: "sarah"}: one-word names
        self.full_names: dict = defaultdict(set)             # id -> {"sarah chen"}, accent-free
        self.fuzzy_ids = [entity_id for _name, entity_id in rows]
        self.fuzzy_choices = [strip_accents(name) for name, _ in rows]
        for name, entity_id in rows:
            self.add(name, entity_id)

    def add(self, name: str, entity_id) -> None:
        bare = strip_accents(name)
        tokens = bare.split(" ")
        if len(tokens) > 1:
            self.by_first[tokens[0]][entity_id] = name
            self.by_last[tokens[-1]][entity_id] = name
            self.full_names[entity_id].add(bare)
        else:
            self.single[tokens[0]][entity_id] = name

    def partial_ids(self, normalized: str) -> list:
        """"Sarah" ↔ "Sarah Chen", "Chen" (after a title: "Dr. Chen") ↔ "Sarah Chen", "Sarah Chen" ↔ "Sarah"."""
        bare = strip_accents(without_title(normalized))
        tokens = bare.split(" ")
        if len(tokens) == 1:
            titled = bare != strip_accents(normalized)
            return list((self.by_last if titled else self.by_first).get(tokens[0], {}))
        # "Sarah Miller" must not land on "Sarah" when that Sarah is known to be Sarah Chen.
        return [entity_id for entity_id in self.single.get(tokens[0], {})
                if not self.full_names.get(entity_id, set()) - {bare}]

    def fuzzy_scores(self, normalized: str, threshold: int) -> dict:
        """{id: best ratio} of the names within `threshold` of `normalized` (among its five closest), except
        full names that clearly belong to someone else ("person 1 test" is not "person 2 test")."""
        mention = strip_accents(normalized)
        results = process.extract(mention, self.fuzzy_choices, scorer=fuzz.ratio, limit=5)
        best_by_entity = {}
        for choice, score, index in results:
            entity_id = self.fuzzy_ids[index]
            if score >= threshold and score > best_by_entity.get(entity_id, 0) and not names_conflict(mention, choice):
                best_by_entity[entity_id] = score
        return best_by_entity


def _partial_match(names: NameTable, mention, normalized, load):
    hits = names.partial_ids(normalized)
    if not hits:
        return None
    return single_match(mention, load(hits), "partial", 0.9)


def _fuzzy_match(names: NameTable, mention, normalized, load):
    best_by_entity = names.fuzzy_scores(normalized, recall_setting("memory.fuzzy_match_threshold"))
    if not best_by_entity:
        return Resolution(mention, None, "unresolved")
    ranked = sorted(best_by_entity.items(), key=lambda item: -item[1])
    entities = {entity.pk: entity for entity in load([entity_id for entity_id, _ in ranked])}
    if len(ranked) > 1 and ranked[0][1] - ranked[1][1] < 3:
        return Resolution(mention, None, "ambiguous", ranked[0][1] / 100, [entities[e] for e, _ in ranked])
    return Resolution(mention, entities[ranked[0][0]], "fuzzy", ranked[0][1] / 100)


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
        entity_kind_correct(entity=resolution.entity, kind=kind)  # "my dog Rex": Rex was never a person
        return resolution
    normalized = normalize_name(mention)
    if resolution.method == "ambiguous" or is_role_phrase(normalized) or is_not_a_name(normalized):
        return resolution
    return Resolution(mention, entity_create(user_id=user_id, name=mention, kind=kind, origin=origin), "new", 1.0)
