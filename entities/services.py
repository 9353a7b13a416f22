"""Writes to the entity graph: entities, aliases, mentions, relations, reviews, unresolved references, and
the user's own entity.

The write pipeline calls `self_entity`, `mentions_record` and `relation_upsert` for nearly every
message, so their statements are hand-written SQL (read back with `models_from_sql`): compiling the
equivalent querysets cost the ORM more than PostgreSQL takes to run them.
"""
from django.db import IntegrityError, connection, transaction
from django.db.models import Q
from django.utils import timezone

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
    UnresolvedReference,
)
from entities.names import normalize_name
from entities.vocabulary import PARTNERS
from recall_site.raw_models import columns, models_from_sql

SELF_NAME = "me"
# A user has one of each of these at a time; assigning the role moves the alias.
EXCLUSIVE_ROLE_ALIASES = {f"my {role}" for role in ("manager", *PARTNERS, "mother", "father")}
ENTITY_FIELDS = Entity._meta.concrete_fields  # what the hand-written entity reads select


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


def entity_create(*, user_id: str, name: str, kind: str = EntityKind.PERSON,
                  origin: str = AliasOrigin.USER_MENTION) -> Entity:
    """A new entity, or the live one of that name and kind when a parallel write made it first:
    `INSERT … ON CONFLICT DO NOTHING` against the constraint one_live_entity_per_name, then the live row."""
    normalized = normalize_name(name)
    entity = Entity(user_id=user_id, kind=kind, canonical_name=name.strip(), normalized_name=normalized)
    if normalized:  # the constraint covers named entities only
        Entity.objects.bulk_create([entity], ignore_conflicts=True)
        entity = Entity.objects.live().get(user_id=user_id, kind=kind, normalized_name=normalized)
    else:
        entity.save()
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


def entity_name_complete(*, entity: Entity, mention: str) -> Entity:
    """"Sarah" first, "Sarah Chen" later: the fuller form becomes the canonical name (the old one stays an alias)."""
    normalized = normalize_name(mention)
    taken = Entity.objects.live().filter(user_id=entity.user_id, kind=entity.kind, normalized_name=normalized)
    if " " not in entity.normalized_name and normalized.startswith(f"{entity.normalized_name} ") and not taken.exists():
        entity.canonical_name, entity.normalized_name = mention.strip(), normalized
        Entity.objects.filter(pk=entity.pk).update(canonical_name=entity.canonical_name, normalized_name=normalized)
    return entity


def entity_name_correct(*, user_id: str, wrong: str, right: str) -> Entity | None:
    """"Sorry, I meant Anna, not Anne": the user's one live entity called `wrong` (by name or alias) is called
    `right`, and `wrong` stays an alias, so a later "Anne" still finds her. None when no single entity is called
    so, or another is already called `right` (then they are two, not a slip)."""
    live = Entity.objects.live().filter(user_id=user_id)
    wrong_form, right_form = normalize_name(wrong), normalize_name(right)
    if not wrong_form or not right_form or live.filter(normalized_name=right_form).exists():
        return None
    named = list(live.filter(Q(normalized_name=wrong_form) | Q(aliases__normalized=wrong_form)).distinct()[:2])
    if len(named) != 1:
        return None
    entity = named[0]
    alias_add(entity=entity, alias=entity.canonical_name)
    entity.canonical_name, entity.normalized_name = right.strip(), right_form
    Entity.objects.filter(pk=entity.pk).update(canonical_name=entity.canonical_name, normalized_name=right_form)
    alias_add(entity=entity, alias=right)
    return entity


# Kinds a later mention can say with evidence of its own ("my dog Rex", "playing Zelda"): they correct an
# entity first taken for a person, the kind a name gets when nothing says otherwise.
KINDS_OVER_PERSON = {EntityKind.PET, EntityKind.THING}


def entity_kind_correct(*, entity: Entity, kind: str) -> Entity:
    """A person named as a pet or a thing with evidence becomes one (unless that entity exists too)."""
    if entity.kind != EntityKind.PERSON or kind not in KINDS_OVER_PERSON:
        return entity
    twin = Entity.objects.live().filter(user_id=entity.user_id, kind=kind, normalized_name=entity.normalized_name)
    if not twin.exists():
        Entity.objects.filter(pk=entity.pk).update(kind=kind)
        entity.kind = kind
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


ROLE_UNNAMED = "role_unknown"  # the unresolved reason of a role phrase nobody holds yet ("my mom")


def role_phrases_said(*, user_id: str, mentions) -> set[tuple[str, str]]:
    """(session id, phrase) for each of these role phrases said while nobody held the role."""
    return set(UnresolvedReference.objects.filter(user_id=user_id, mention__in=list(mentions), reason=ROLE_UNNAMED)
               .values_list("session_id", "mention").distinct())


def relation_upsert(*, subject: Entity, predicate: str, object: Entity, confidence: float = 0.9,
                    session_id: str = "", valid_from=None, source_message_id: str = "",
                    single_valued: bool = False) -> Relation:
    """Add the active edge subject —predicate→ object, or raise the confidence of the one already there; the
    message that stated it joins its source message ids. A `single_valued` edge (me lives_in Munich) retires
    the subject's other active edges of that predicate (me lives_in Berlin), in the same statement."""
    sources = [source_message_id] if source_message_id else []
    relation = Relation(user_id=subject.user_id, subject=subject, predicate=predicate, object=object,
                        confidence=confidence, session_id=session_id, valid_from=valid_from,
                        source_message_ids=sources)
    if _insert_unless_active(relation, retire_others_at=(valid_from or timezone.now()) if single_valued else None):
        return relation
    relation = Relation.objects.get(subject=subject, predicate=predicate, object=object,
                                    status=RelationStatus.ACTIVE)
    changed = []
    if confidence > relation.confidence:
        relation.confidence = confidence
        changed.append("confidence")
    if source_message_id and source_message_id not in relation.source_message_ids:
        relation.source_message_ids = [*relation.source_message_ids, source_message_id]
        changed.append("source_message_ids")
    if changed:
        relation.save(update_fields=changed)
    return relation


def _insert_unless_active(relation: Relation, *, retire_others_at=None) -> bool:
    """Insert a new edge unless the same one is active (unique_active_relation): one statement, no savepoint.
    With `retire_others_at`, the subject's other active edges of the predicate are superseded then."""
    fields = [f for f in Relation._meta.concrete_fields if not f.primary_key]
    params = [f.get_db_prep_save(f.pre_save(relation, True), connection) for f in fields]
    sql = (f"INSERT INTO {Relation._meta.db_table} ({', '.join(f.column for f in fields)})"
           f" VALUES ({', '.join(['%s'] * len(fields))}) ON CONFLICT DO NOTHING RETURNING id")
    if retire_others_at is not None:
        sql = (f"WITH retired AS (UPDATE {Relation._meta.db_table} SET status = %s, valid_to = %s"
               " WHERE user_id = %s AND subject_id = %s AND predicate = %s AND status = %s AND object_id <> %s) "
               + sql)
        params = [RelationStatus.SUPERSEDED, retire_others_at, relation.user_id, relation.subject_id,
                  relation.predicate, RelationStatus.ACTIVE, relation.object_id, *params]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        return False
    relation.pk, relation._state.adding, relation._state.db = row[0], False, connection.alias  # as bulk_create does
    return True
