"""The per-user graph: entities (people, orgs, places), their aliases, mentions and relations."""
import secrets

from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.utils import timezone
from pgvector.django import VectorField

EMBEDDING_DIMENSIONS = 384


def first_word(field: str) -> models.Func:
    """SQL `split_part(<field>, ' ', 1)`: a name's first word."""
    return models.Func(models.F(field), models.Value(" "), models.Value(1), function="split_part",
                       output_field=models.CharField())


def new_entity_public_id() -> str:
    # Random on purpose: a public id must not carry the name (tombstones keep only the id).
    return f"ent_{secrets.token_hex(6)}"


class EntityKind(models.TextChoices):
    SELF = "self", "The user"
    PERSON = "person", "Person"
    PET = "pet", "Pet"
    ORG = "org", "Organisation"
    PLACE = "place", "Place"
    THING = "thing", "Thing"


class EntityQuerySet(models.QuerySet):
    def live(self):
        return self.filter(deleted_at__isnull=True)

    def for_user(self, user_id: str):
        return self.filter(user_id=user_id)


class Entity(models.Model):
    public_id = models.CharField(max_length=32, unique=True, default=new_entity_public_id, editable=False)
    user_id = models.CharField(max_length=128)
    kind = models.CharField(max_length=16, choices=EntityKind.choices, default=EntityKind.PERSON)
    canonical_name = models.CharField(max_length=200, blank=True)
    normalized_name = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    last_mentioned_at = models.DateTimeField(null=True, blank=True)
    # Tombstone: a deleted entity keeps only its id and deleted_at.
    deleted_at = models.DateTimeField(null=True, blank=True)
    drift_flagged = models.BooleanField(default=False)
    drift_flagged_at = models.DateTimeField(null=True, blank=True)
    # Drift detection compares the creation-time snapshot with the current state.
    centroid_at_creation = VectorField(dimensions=EMBEDDING_DIMENSIONS, null=True, blank=True)
    centroid = VectorField(dimensions=EMBEDDING_DIMENSIONS, null=True, blank=True)
    relations_at_creation = models.JSONField(default=list, blank=True)

    objects = EntityQuerySet.as_manager()

    class Meta:
        verbose_name_plural = "entities"
        indexes = [
            models.Index(fields=["user_id", "normalized_name"]),
            models.Index(fields=["user_id", "kind"]),
            # Search matches a query's words against first names ("sarah" for "sarah chen").
            models.Index("user_id", first_word("normalized_name"), name="entity_user_first_word"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["user_id"],
                condition=models.Q(kind="self", deleted_at__isnull=True),
                name="one_self_entity_per_user",
            ),
            # One live entity per name and kind: parallel writes naming a new person make one entity.
            models.UniqueConstraint(
                fields=["user_id", "normalized_name", "kind"],
                condition=models.Q(deleted_at__isnull=True) & ~models.Q(normalized_name=""),
                name="one_live_entity_per_name",
            ),
        ]

    def __str__(self):
        return self.canonical_name or self.public_id


class AliasOrigin(models.TextChoices):
    USER_MENTION = "user_mention", "User mention"
    CONTACTS = "contacts", "Contacts import"
    MERGE = "merge", "Merge"
    ROLE = "role", "Role phrase"
    MANUAL = "manual", "Added by hand"


class Alias(models.Model):
    user_id = models.CharField(max_length=128)
    entity = models.ForeignKey(Entity, on_delete=models.CASCADE, related_name="aliases")
    alias = models.CharField(max_length=200)
    normalized = models.CharField(max_length=200)
    origin = models.CharField(max_length=16, choices=AliasOrigin.choices, default=AliasOrigin.USER_MENTION)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name_plural = "aliases"
        indexes = [
            models.Index(fields=["user_id", "normalized"]),
            models.Index("user_id", first_word("normalized"), name="alias_user_first_word"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["entity", "normalized"], name="unique_alias_per_entity"),
        ]

    def __str__(self):
        return self.alias


class EntityMention(models.Model):
    """An entity was mentioned in a session (feeds coverage metrics and session deletes)."""

    user_id = models.CharField(max_length=128)
    entity = models.ForeignKey(Entity, on_delete=models.CASCADE, related_name="mentions")
    session_id = models.CharField(max_length=128)
    mentioned_at = models.DateTimeField(default=timezone.now)
    source_message_id = models.CharField(max_length=128, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["user_id", "session_id"]),
            models.Index(fields=["entity", "mentioned_at"]),
        ]


class RelationStatus(models.TextChoices):
    ACTIVE = "active", "Active"
    SUPERSEDED = "superseded", "Superseded"


class Relation(models.Model):
    """A typed edge: subject —predicate→ object (e.g. alex partner_of sarah)."""

    user_id = models.CharField(max_length=128)
    subject = models.ForeignKey(Entity, on_delete=models.CASCADE, related_name="relations_out")
    predicate = models.CharField(max_length=64)
    object = models.ForeignKey(Entity, on_delete=models.CASCADE, related_name="relations_in")
    confidence = models.FloatField(default=0.9)
    valid_from = models.DateTimeField(null=True, blank=True)
    valid_to = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=16, choices=RelationStatus.choices, default=RelationStatus.ACTIVE)
    session_id = models.CharField(max_length=128, blank=True)
    # The messages that stated it (ids only, like a memory's): where the edge came from, for the console.
    source_message_ids = ArrayField(models.CharField(max_length=128), default=list, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [
            models.Index(fields=["user_id", "subject"]),
            models.Index(fields=["user_id", "object"]),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["subject", "predicate", "object"],
                condition=models.Q(status="active"),
                name="unique_active_relation",
            ),
        ]

    def __str__(self):
        return f"{self.subject} -{self.predicate}-> {self.object}"


class UnresolvedReference(models.Model):
    """A mention the resolver could not map to an entity (feeds the unresolved-rate metric)."""

    user_id = models.CharField(max_length=128)
    session_id = models.CharField(max_length=128, blank=True)
    mention = models.CharField(max_length=200)
    reason = models.CharField(max_length=64, default="no_match")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["user_id", "created_at"])]


class EntityReviewKind(models.TextChoices):
    AMBIGUOUS_MATCH = "ambiguous_match", "Ambiguous match"
    DRIFT = "drift", "Drift"


class EntityReview(models.Model):
    """An entity question for the user: an ambiguous name match or detected drift."""

    user_id = models.CharField(max_length=128)
    kind = models.CharField(max_length=24, choices=EntityReviewKind.choices)
    entity = models.ForeignKey(Entity, on_delete=models.CASCADE, related_name="reviews")
    candidate = models.ForeignKey(
        Entity, on_delete=models.CASCADE, null=True, blank=True, related_name="candidate_reviews"
    )
    # No names are stored here; the question is worded from the entities when shown.
    created_at = models.DateTimeField(default=timezone.now)
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["user_id", "resolved_at"])]
