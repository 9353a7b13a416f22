"""Import a contacts export into the user's entity graph, in one transaction.

Each card is matched by the resolver's rules (`entities.resolver`), against the
user's names read once (`ContactsDirectory`), so the time is linear in the cards. A match on the full name (exact,
normalized or alias) is taken; a weaker match (first name, title + surname,
fuzzy) is taken only if no other card in the file claims the same existing
entity. A name that clearly belongs to someone else ("Sarah Miller" vs an entity
"Sarah Chen") is never a match. Anything in between becomes a new entity plus
an `ambiguous_match` review, never a blind merge.

The user's own card is named by the caller (`self_card`: its full name); it
enriches the self entity instead of creating a person, and its relations
("manager", "mother", …) also become role aliases ("my manager", "my mother").
"""
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field

from django.db import connection, transaction

from audit.labels import AuditAction
from audit.services import audit_record
from entities.contacts.cards import RELATION_LABELS, SKIPPED_CATEGORIES, ContactCard, ContactsFormatError
from entities.contacts.directory import ContactsDirectory
from entities.contacts.spreadsheet import read_csv_contacts
from entities.contacts.vcard import read_vcards
from entities.likeness import FIRST_NAME_ONLY, best_likeness, full_names_conflict, name_tokens
from entities.models import Alias, AliasOrigin, Entity, EntityKind, EntityReview, EntityReviewKind, Relation
from entities.names import normalize_name
from entities.services import self_entity
from recall_site.config import recall_setting
from recall_site.input_checks import text_problem

STRONG_METHODS = ("exact", "normalized", "alias")
BATCH = 2000
ID_BLOCK = 500  # entity ids reserved at a time
NAME_MAX_CHARS = Entity._meta.get_field("canonical_name").max_length


@dataclass
class ImportSummary:
    format: str
    cards: int = 0
    people_created: int = 0
    people_matched: int = 0       # an entity that existed before this import was enriched
    duplicate_cards: int = 0      # a second card for someone created earlier from this file
    organisations_created: int = 0
    aliases_added: int = 0
    relations_added: int = 0
    ambiguous: int = 0            # cards sent to the review queue instead of being merged
    self_card_used: bool = False
    cards_without_name: int = 0
    skipped_fields: dict = field(default_factory=lambda: dict.fromkeys(SKIPPED_CATEGORIES, 0))

    def as_dict(self) -> dict:
        return asdict(self)


def import_contacts(*, user_id: str, data: bytes | str, filename: str = "", actor: str,
                    self_card: str = "", progress=None) -> ImportSummary:
    """Read the whole file first (errors name the line/card), then write everything or nothing."""
    if isinstance(data, bytes) and len(data) > recall_setting("contacts.max_upload_bytes"):
        raise ContactsFormatError("The file is larger than contacts.max_upload_bytes allows.")
    text = _decoded(data)
    file_format = _format_of(text, filename)
    cards = read_vcards(text) if file_format == "vcard" else read_csv_contacts(text)
    _check_names(cards)
    own = _own_card(cards, self_card)
    summary = ImportSummary(format=file_format, cards=len(cards), self_card_used=own is not None)
    with transaction.atomic():
        _ContactsWriter(user_id, summary).run(cards, own, progress)
        audit_record(actor=actor, action=AuditAction.CONTACTS_IMPORT, user_id=user_id, counts=_audit_counts(summary))
    return summary


def _decoded(data: bytes | str) -> str:
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")  # Outlook's CSV export on Windows


def _format_of(text: str, filename: str) -> str:
    lowered = filename.lower()
    if lowered.endswith((".vcf", ".vcard")) or text.lstrip()[:11].upper() == "BEGIN:VCARD":
        return "vcard"
    if lowered.endswith(".csv") or "," in text.split("\n", 1)[0]:
        return "csv"
    raise ContactsFormatError("Unrecognised file: expected a vCard (.vcf) or a Google/Outlook CSV export.")


def _check_names(cards: list[ContactCard]) -> None:
    """A name the database cannot store (a NUL byte, longer than the name column) stops the import unwritten."""
    for card in cards:
        for text in card.stored_texts():
            problem = text_problem(text)
            if not problem and len(text) > NAME_MAX_CHARS:
                problem = f"A name is longer than {NAME_MAX_CHARS} characters."
            if problem:
                raise ContactsFormatError(f"{card.where[:1].upper()}{card.where[1:]}: {problem}")


def _own_card(cards: list[ContactCard], self_card: str) -> ContactCard | None:
    wanted = normalize_name(self_card or "")
    if not wanted:
        return None
    for card in cards:
        if wanted in card.normalized_names():
            return card
    raise ContactsFormatError(f"No card in this file is named {self_card!r} (the self card must match a name).")


def _audit_counts(summary: ImportSummary) -> dict:
    counts = {k: v for k, v in summary.as_dict().items() if isinstance(v, int) and not isinstance(v, bool)}
    counts["skipped_fields"] = sum(summary.skipped_fields.values())
    return counts


class _ContactsWriter:
    """Places every card against the user's names, read once (ContactsDirectory); new people and
    organisations take ids reserved from the table's sequence, so they, their aliases, relations and
    reviews are inserted in a few batches at the end."""

    def __init__(self, user_id: str, summary: ImportSummary):
        self.user_id, self.summary = user_id, summary
        self.directory = ContactsDirectory.read(user_id)
        self.created: set[int] = set()
        self.claims: Counter = Counter()
        self.by_uid: dict[str, Entity] = {}
        self.own_names: set[str] = set()
        self.new_aliases: list[Alias] = []
        self.relations = set(Relation.objects.filter(user_id=user_id, status="active")
                             .values_list("subject_id", "predicate", "object_id"))
        self.new_relations: list[Relation] = []
        self.new_entities: list[Entity] = []
        self.new_reviews: list[EntityReview] = []
        self.free_ids: list[int] = []
        self._self_entity = None

    def run(self, cards, own, progress) -> None:
        people = [card for card in cards if card is not own and not card.is_organisation and card.name]
        self.own_names = own.normalized_names() if own else set()
        self._count_claims(people)
        placed = []
        for card in cards:
            for category, count in card.skipped.items():
                self.summary.skipped_fields[category] += count
            entity = self._place(card, own)
            if entity:
                placed.append((card, entity))
                if card.uid:
                    self.by_uid[card.uid] = entity
            if progress:
                progress(1)
        for card, entity in placed:
            self._relate(card, entity, is_self=card is own)
        self._insert()

    def _insert(self) -> None:
        Entity.objects.bulk_create(self.new_entities, batch_size=BATCH, ignore_conflicts=True)
        if Entity.objects.filter(pk__in=self.created).count() != len(self.new_entities):
            # another request wrote one of these names in the meantime (one_live_entity_per_name)
            raise ContactsFormatError("Some of these names were written by another request during the import; "
                                      "nothing was imported, try again.")
        Alias.objects.bulk_create(self.new_aliases, batch_size=BATCH, ignore_conflicts=True)
        Relation.objects.bulk_create(self.new_relations, batch_size=BATCH, ignore_conflicts=True)
        EntityReview.objects.bulk_create(self.new_reviews, batch_size=BATCH)

    def _place(self, card: ContactCard, own) -> Entity | None:
        if not card.name:
            self.summary.cards_without_name += 1
            return None
        if card.is_organisation:
            return self._organisation(card.organisation or card.name)
        entity = self._self() if card is own else self._person(card)
        self._add_aliases(entity, card.alias_forms())
        if card.organisation:
            self._link(entity, "works_at", self._organisation(card.organisation))
        return entity

    # -- matching

    def _count_claims(self, cards) -> None:
        """How many distinct cards would take each existing entity by a weak match."""
        if not self.directory.has_people():
            return  # nobody to claim: a first import
        claimants = defaultdict(set)
        for card in cards:
            for entity in self._candidates(card)[0]:
                claimants[entity.pk].add(normalize_name(card.name))
        self.claims = Counter({pk: len(names) for pk, names in claimants.items()})

    def _candidates(self, card: ContactCard) -> tuple[list[Entity], bool]:
        """Entities this card may be (none conflicting with its names), and whether the full name matched."""
        names = card.normalized_names()
        for form in card.lookup_forms():
            resolution = self.directory.resolve(form)
            found = [resolution.entity] if resolution.entity else resolution.candidates
            fitting = [e for e in found if e.kind == EntityKind.PERSON
                       and not full_names_conflict(names, self.directory.names_of(e))]
            if fitting:
                return fitting, form == card.name and resolution.method in STRONG_METHODS
        return [], False

    def _person(self, card: ContactCard, *, from_card: bool = True) -> Entity:
        fitting, strong = self._candidates(card)
        if len(fitting) == 1 and (strong or (self.claims[fitting[0].pk] <= 1 and not self._has_rival(fitting[0]))):
            return self._enrich(fitting[0], card, from_card=from_card)
        entity = self._create(card.name, EntityKind.PERSON)
        self.summary.people_created += 1
        if fitting:
            self.summary.ambiguous += 1
            self.new_reviews += [EntityReview(user_id=self.user_id, kind=EntityReviewKind.AMBIGUOUS_MATCH,
                                              entity=candidate, candidate=entity) for candidate in fitting]
        return entity

    def _has_rival(self, entity: Entity) -> bool:
        """Could another person be meant by this entity's name? ("Sarah" when "Sarah Chen" exists too.)"""
        other_names = set().union(*(self.directory.names_of(other) for other in self.directory.people()
                                    if other.pk != entity.pk))
        return best_likeness(self.directory.names_of(entity), other_names)[0] >= FIRST_NAME_ONLY

    def _enrich(self, entity: Entity, card: ContactCard, *, from_card: bool) -> Entity:
        if from_card and entity.pk in self.created:
            self.summary.duplicate_cards += 1
        elif from_card:
            self.summary.people_matched += 1
        current, _ = name_tokens(entity.normalized_name)
        fuller, _ = name_tokens(normalize_name(card.name))
        if len(current) == 1 and len(fuller) > 1 and current[0] in fuller:
            # A first-name-only entity from conversation ("Sarah") takes the contact's full name.
            old_normalized, old_canonical = entity.normalized_name, entity.canonical_name
            entity.canonical_name, entity.normalized_name = card.name, normalize_name(card.name)
            if entity.pk not in self.created:  # one made by this import is inserted with its new name
                entity.save(update_fields=["canonical_name", "normalized_name"])
            self.directory.renamed(entity, old_normalized, old_canonical)
        return entity

    # -- writes

    def _self(self) -> Entity:
        if self._self_entity is None:
            self._self_entity = self_entity(self.user_id)
            for normalized in self._self_entity.aliases.values_list("normalized", flat=True):
                self.directory.add_alias(self._self_entity, normalized)
        return self._self_entity

    def _create(self, name: str, kind: str) -> Entity:
        """A new entity (inserted at the end) and its name as an alias."""
        entity = Entity(pk=self._next_id(), user_id=self.user_id, kind=kind, canonical_name=name.strip(),
                        normalized_name=normalize_name(name))
        self.new_entities.append(entity)
        self.created.add(entity.pk)
        self.directory.add_entity(entity)
        self._add_aliases(entity, [name])
        return entity

    def _next_id(self) -> int:
        if not self.free_ids:
            with connection.cursor() as cursor:
                cursor.execute("SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)",
                               [Entity._meta.db_table, ID_BLOCK])
                self.free_ids = [row[0] for row in reversed(cursor.fetchall())]
        return self.free_ids.pop()

    def _add_aliases(self, entity: Entity, forms) -> None:
        known = self.directory.aliases[entity.pk]
        for form in forms:
            normalized = normalize_name(form)
            if normalized and normalized not in known:
                self.new_aliases.append(Alias(entity=entity, user_id=entity.user_id, alias=form.strip(),
                                              normalized=normalized, origin=AliasOrigin.CONTACTS))
                self.directory.add_alias(entity, normalized)
                self.summary.aliases_added += 1

    def _organisation(self, name: str) -> Entity:
        match = self.directory.organisation(normalize_name(name))
        if match:
            return match
        self.summary.organisations_created += 1
        return self._create(name, EntityKind.ORG)

    def _relate(self, card: ContactCard, entity: Entity, *, is_self: bool) -> None:
        related = [(label, self._related_person(name)) for label, name in card.related]
        related += [(label, self.by_uid[uid]) for label, uid in card.related_uids if uid in self.by_uid]
        for label, other in related:
            if other.pk == entity.pk:
                continue
            predicate, role = RELATION_LABELS[label]
            self._link(other, predicate, entity)
            if is_self and role:
                self._add_aliases(other, [role])

    def _related_person(self, name: str) -> Entity:
        if normalize_name(name) in self.own_names:
            return self._self()
        return self._person(ContactCard(where="related name", full_name=name), from_card=False)

    def _link(self, subject: Entity, predicate: str, object: Entity) -> None:
        key = (subject.pk, predicate, object.pk)
        if key not in self.relations:
            self.relations.add(key)
            self.new_relations.append(Relation(subject=subject, predicate=predicate, object=object, status="active",
                                               user_id=self.user_id))
            self.summary.relations_added += 1
