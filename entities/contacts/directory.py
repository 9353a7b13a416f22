"""The user's entities as a contacts import sees them: read once, then kept up to date by the import's writes.

`resolve` answers as `entities.resolver.resolve_mention` does (exact → normalized → alias → partial → fuzzy,
two equal matches reported as ambiguous), with the resolver's own rules, from memory: an import of N cards
reads the user's names once instead of once per card, so it takes time linear in N. The entities and aliases
the import writes take part in the direct and partial matches of the cards after them (a card exported twice
finds the first); fuzzy matching, which is for typos in names said in conversation, stays on the names the
user had before the import.
"""
from collections import defaultdict

from entities.models import Alias, Entity, EntityKind
from entities.names import is_not_a_name, is_role_phrase, normalize_name
from entities.resolver import DirectMatches, NameTable, Resolution, name_variants, resolve_by_likeness, resolve_direct


class ContactsDirectory:
    def __init__(self, entities: list[Entity], aliases: list[tuple[str, int]]):
        self.entities: dict[int, Entity] = {}
        self.aliases: dict[int, set[str]] = defaultdict(set)  # entity id -> normalized aliases
        self.by_canonical: dict[str, set[int]] = defaultdict(set)
        self.by_normalized: dict[str, set[int]] = defaultdict(set)
        self.by_alias: dict[str, set[int]] = defaultdict(set)
        for entity in entities:
            self._index_entity(entity)
        for normalized, entity_id in aliases:
            self._index_alias(entity_id, normalized)
        names = [(entity.normalized_name, entity.pk) for entity in entities] + aliases
        self.table = NameTable([(name, entity_id) for name, entity_id in names if _listed(name)])

    @classmethod
    def read(cls, user_id: str) -> "ContactsDirectory":
        """The user's live non-self entities and their aliases: two queries."""
        entities = list(Entity.objects.live().for_user(user_id).exclude(kind=EntityKind.SELF).order_by("pk"))
        aliases = list(Alias.objects.filter(user_id=user_id, entity__deleted_at__isnull=True)
                       .exclude(entity__kind=EntityKind.SELF).values_list("normalized", "entity_id"))
        return cls(entities, aliases)

    # -- reads

    def resolve(self, mention: str) -> Resolution:
        normalized = normalize_name(mention)
        if is_not_a_name(normalized):
            return Resolution(mention, None, "unresolved")
        found = resolve_direct(mention, self._named(mention, normalized))
        if found:
            return found
        if is_role_phrase(normalized):
            return Resolution(mention, None, "unresolved")
        return resolve_by_likeness(mention, self.table, self._load)

    def names_of(self, entity: Entity) -> set[str]:
        """The entity's normalized name and aliases."""
        return self.aliases[entity.pk] | {entity.normalized_name}

    def people(self) -> list[Entity]:
        return [entity for entity in self.entities.values() if entity.kind == EntityKind.PERSON]

    def has_people(self) -> bool:
        return any(entity.kind == EntityKind.PERSON for entity in self.entities.values())

    def organisation(self, normalized: str) -> Entity | None:
        """The org of that normalized name, else one with that alias (oldest first)."""
        for index in (self.by_normalized, self.by_alias):
            orgs = [self.entities[pk] for pk in sorted(index.get(normalized, ())) if
                    self.entities[pk].kind == EntityKind.ORG]
            if orgs:
                return orgs[0]
        return None

    # -- the import's writes

    def add_entity(self, entity: Entity) -> None:
        self._index_entity(entity)
        if _listed(entity.normalized_name):
            self.table.add(entity.normalized_name, entity.pk)

    def add_alias(self, entity: Entity, normalized: str) -> None:
        """A new alias; the self entity's (the user's own card) are kept apart, as the resolver never finds it."""
        self.aliases[entity.pk].add(normalized)
        self._index_alias(entity.pk, normalized)
        if entity.pk in self.entities and _listed(normalized):
            self.table.add(normalized, entity.pk)

    def renamed(self, entity: Entity, old_normalized: str, old_canonical: str) -> None:
        self.by_normalized[old_normalized].discard(entity.pk)
        self.by_canonical[old_canonical].discard(entity.pk)
        self.add_entity(entity)

    # -- internals

    def _index_entity(self, entity: Entity) -> None:
        self.entities[entity.pk] = entity
        self.by_canonical[entity.canonical_name].add(entity.pk)
        self.by_normalized[entity.normalized_name].add(entity.pk)

    def _index_alias(self, entity_id: int, normalized: str) -> None:
        if entity_id in self.entities:
            self.aliases[entity_id].add(normalized)
            self.by_alias[normalized].add(entity_id)

    def _named(self, mention: str, normalized: str) -> list[Entity]:
        """As DirectMatches.of: the entities named `mention`, normalized like it, or with an alias of a variant."""
        ids = self.by_canonical.get(mention.strip(), set()) | self.by_normalized.get(normalized, set())
        for variant in name_variants(normalized):
            ids |= self.by_alias.get(variant, set())
        named = [self.entities[pk] for pk in sorted(ids)][:DirectMatches.LIMIT]
        for entity in named:
            entity.has_alias = normalized in self.aliases[entity.pk]
        return named

    def _load(self, ids) -> list[Entity]:
        return [self.entities[pk] for pk in sorted(ids) if pk in self.entities]


def _listed(name: str) -> bool:
    """Names the resolver's name table holds (it leaves out role phrases)."""
    return bool(name) and not is_role_phrase(name)
