"""Typed memories, their history, user profiles, per-turn injection state and background ingest jobs."""
import secrets

from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVector, SearchVectorField
from django.db import models
from django.utils import timezone
from pgvector.django import HnswIndex, VectorField

from entities.models import EMBEDDING_DIMENSIONS, Entity
from memories.user_words import UserWords

# `details.said_by` of a memory holding what the assistant said (pipeline/assistant_turns.py).
SAID_BY_ASSISTANT = "assistant"


class MemoryType(models.TextChoices):
    FACT = "fact", "Fact"
    PREFERENCE = "preference", "Preference"
    EVENT = "event", "Event"
    ENTITY = "entity", "Entity"
    RELATION = "relation", "Relation"


class Domain(models.TextChoices):
    PROFESSIONAL = "professional", "Professional"
    PERSONAL = "personal", "Personal"
    HEALTH = "health", "Health"
    RELATIONSHIP = "relationship", "Relationship"
    SCHEDULING = "scheduling", "Scheduling"


# The memory domains a query of each domain may read (README, "Search"; search.retrieval.gating applies it).
ALLOWED_DOMAINS = {
    "professional": [Domain.PROFESSIONAL, Domain.SCHEDULING],
    "personal": [Domain.PERSONAL, Domain.PROFESSIONAL, Domain.SCHEDULING],
    "health": [Domain.HEALTH],
    "relationship": [Domain.RELATIONSHIP, Domain.PERSONAL],
}


# Query domains whose gate gets its own partial indexes. The personal gate reads three of the five
# domains (most memories): its nearest rows rarely lie outside it, so the full indexes serve it, and
# one more HNSW index would cost every embedding write ~2.5 ms (each write updates every HNSW index
# whose domains include the memory's).
GATED_INDEX_DOMAINS = ["professional", "health", "relationship"]


def _gated_indexes(query_domain: str) -> list[models.Index]:
    """Partial HNSW and full-text indexes over the memories a `query_domain` query may read.

    pgvector 0.6 filters HNSW results after the scan: when the nearest vectors all
    lie in other domains (a work query whose neighbours are personal notes), the
    full index hands back too few rows and the scan must be repeated wider (20-30
    ms at 100k memories). Over its own domains' rows the index returns matches
    straight away. Likewise full text: "dentist appointment" matches thousands of
    scheduling notes that a health query would fetch only to filter out (~9 ms);
    its own index holds none of them. The planner picks these indexes because the
    search's `domain IN (...)` filter is their predicate.
    """
    gated = models.Q(domain__in=[str(d) for d in ALLOWED_DOMAINS[query_domain]])
    return [
        HnswIndex(name=f"memory_hnsw_{query_domain}", fields=["embedding"], m=16, ef_construction=64,
                  opclasses=["vector_cosine_ops"], condition=gated),
        GinIndex(UserWords(), name=f"memory_words_{query_domain}", condition=gated),
    ]


# Review reasons of confident memories that wait only for a person's confirmation (auto memories, auto-pins):
# searchable meanwhile, marked unreviewed. Doubtful ones (inferred, ambiguous_entity, ...) stay out of search.
SEARCHABLE_REVIEW_REASONS = ("auto_memory", "auto_pinned")


class Scope(models.TextChoices):
    USER_GLOBAL = "user_global", "User global"
    SESSION_LOCAL = "session_local", "Session local"


class Source(models.TextChoices):
    MANUAL_TOOL = "manual_tool", "remember_memory tool"
    AUTO_REFLECTION = "auto_reflection", "Auto-reflection"
    IMPORT = "import", "Import"
    INFERRED = "inferred", "Inferred"


class Status(models.TextChoices):
    ACTIVE = "active", "Active"
    SUPERSEDED = "superseded", "Superseded"
    EXPIRED = "expired", "Expired"


class EmbeddingStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    READY = "ready", "Ready"
    ERROR = "error", "Error"
    DISABLED = "disabled", "Disabled"


class MemoryQuerySet(models.QuerySet):
    def for_user(self, user_id: str):
        return self.filter(user_id=user_id)

    def active(self):
        return self.filter(status=Status.ACTIVE)

    def without_vectors(self):
        """Rows without the embedding and the generated tsvector: large, and only the database reads them."""
        return self.defer("embedding", "search_vector")


class Memory(models.Model):
    user_id = models.CharField(max_length=128)
    session_id = models.CharField(max_length=128)
    scope = models.CharField(max_length=16, choices=Scope.choices, default=Scope.USER_GLOBAL)
    type = models.CharField(max_length=16, choices=MemoryType.choices)
    content = models.TextField()
    domain = models.CharField(max_length=16, choices=Domain.choices, default=Domain.PERSONAL)
    sensitive = models.BooleanField(default=False)
    confidence = models.FloatField(default=0.9)
    importance = models.FloatField(default=0.5)
    occurrences = models.PositiveIntegerField(default=1)
    half_life_days = models.FloatField(default=180)
    valid_from = models.DateTimeField(null=True, blank=True)
    valid_to = models.DateTimeField(null=True, blank=True)
    last_reinforced_at = models.DateTimeField(default=timezone.now)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)
    source = models.CharField(max_length=16, choices=Source.choices, default=Source.MANUAL_TOOL)
    source_message_ids = ArrayField(models.CharField(max_length=128), default=list, blank=True)
    pinned = models.BooleanField(default=False)
    needs_review = models.BooleanField(default=False)
    # Why the memory is in the review queue (e.g. auto_memory, auto_pinned, inferred).
    review_reason = models.CharField(max_length=32, blank=True)
    reviewed_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ACTIVE)
    # In the database: (superseded_by_id, user_id) → (id, user_id), as memories/partitions.py keys memories.
    superseded_by = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="supersedes", db_constraint=False
    )
    expired_at = models.DateTimeField(null=True, blank=True)
    # subject + attribute identify what a fact is about (user + residence), so a
    # new value supersedes the old one.
    subject = models.ForeignKey(
        Entity, on_delete=models.SET_NULL, null=True, blank=True, related_name="subject_memories"
    )
    attribute = models.CharField(max_length=64, blank=True)
    entities = models.ManyToManyField(Entity, through="MemoryEntity", related_name="memories", blank=True)
    # Structured extras from extraction (relation triple, temporal text, pattern key).
    details = models.JSONField(default=dict, blank=True)
    embedding = VectorField(dimensions=EMBEDDING_DIMENSIONS, null=True, blank=True)
    embedding_status = models.CharField(
        max_length=16, choices=EmbeddingStatus.choices, default=EmbeddingStatus.PENDING
    )
    search_vector = models.GeneratedField(
        expression=SearchVector("content", config="english"),
        output_field=SearchVectorField(),
        db_persist=True,
    )

    objects = MemoryQuerySet.as_manager()

    class Meta:
        verbose_name_plural = "memories"
        indexes = [
            models.Index(fields=["user_id", "type", "status"], name="memory_user_type_status"),
            # A user's rows in a search's domains, without reading their others: the semantic retriever's
            # count of eligible rows and its exact scan (search/retrieval/semantic.py).
            models.Index(fields=["user_id", "domain", "status"], name="memory_user_domain_status"),
            models.Index(fields=["user_id", "session_id"], name="memory_user_session"),
            models.Index(fields=["user_id", "needs_review"], name="memory_user_review"),
            # Full text, each user's postings apart (memories/user_words.py).
            GinIndex(UserWords(), name="memory_words"),
            HnswIndex(
                name="memory_embedding_hnsw",
                fields=["embedding"],
                m=16,
                ef_construction=64,
                opclasses=["vector_cosine_ops"],
            ),
            *[index for query_domain in GATED_INDEX_DOMAINS for index in _gated_indexes(query_domain)],
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(confidence__gte=0) & models.Q(confidence__lte=1), name="confidence_0_1"
            ),
            models.CheckConstraint(
                condition=models.Q(importance__gte=0) & models.Q(importance__lte=1), name="importance_0_1"
            ),
        ]

    def __str__(self):
        return f"{self.type}: {self.content[:60]}"


# A memory's columns without the two the database alone reads (`without_vectors()`), for hand-written SQL.
MEMORY_ROW_FIELDS = [f for f in Memory._meta.concrete_fields if f.name not in ("embedding", "search_vector")]


class MemorySentence(models.Model):
    """One sentence of a multi-sentence memory, embedded on its own (memories/sentences.py): semantic search
    matches a memory by its whole text and by its best sentence. Written with the memory's embedding,
    replaced when it is re-embedded, gone with the memory. Or the vector of a memory it superseded
    (`inherited_from`)."""

    user_id = models.CharField(max_length=128)
    # The database's key is (memory_id, user_id) → the memory's (id, user_id): memories/partitions.py.
    memory = models.ForeignKey(Memory, on_delete=models.CASCADE, related_name="sentences", db_constraint=False)
    embedding = VectorField(dimensions=EMBEDDING_DIMENSIONS)
    # The memory this row's vector is of, when it is not `memory`'s own sentence but a memory `memory` superseded
    # (memories/inherited_vectors.py): a plain id, as the row goes when that memory is edited or forgotten.
    inherited_from = models.BigIntegerField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["user_id"], name="memory_sentence_user"),
            HnswIndex(name="memory_sentence_hnsw", fields=["embedding"], m=16, ef_construction=64,
                      opclasses=["vector_cosine_ops"]),
        ]


class MemoryEntity(models.Model):
    """Link from a memory to an entity it references (role: subject, object or mention)."""

    user_id = models.CharField(max_length=128)
    # The database's key is (memory_id, user_id) → the memory's (id, user_id): memories/partitions.py.
    memory = models.ForeignKey(Memory, on_delete=models.CASCADE, db_constraint=False)
    entity = models.ForeignKey(Entity, on_delete=models.CASCADE)
    role = models.CharField(max_length=16, default="mention")

    class Meta:
        verbose_name = "memory entity link"
        verbose_name_plural = "memory entity links"
        constraints = [models.UniqueConstraint(fields=["memory", "entity"], name="unique_memory_entity")]
        indexes = [models.Index(fields=["entity", "memory"])]


class HistoryAction(models.TextChoices):
    CREATED = "created", "Created"
    REINFORCED = "reinforced", "Reinforced"
    PROMOTED = "promoted", "Promoted out of review"
    SUPERSEDED = "superseded", "Superseded"
    APPROVED = "approved", "Approved"
    EDITED = "edited", "Edited"
    PINNED = "pinned", "Pinned"
    UNPINNED = "unpinned", "Unpinned"
    EXPIRED = "expired", "Expired"
    RESTORED = "restored", "Restored"
    PERSON_CHOSEN = "person_chosen", "Person chosen in review"


class MemoryHistory(models.Model):
    """What happened to a memory: created, reinforced, superseded, approved, edited, expired, restored.

    Holds ids and session ids only, never content.
    """

    user_id = models.CharField(max_length=128)
    # The database's key is (memory_id, user_id) → the memory's (id, user_id): memories/partitions.py.
    memory = models.ForeignKey(Memory, on_delete=models.CASCADE, related_name="history", db_constraint=False)
    action = models.CharField(max_length=24, choices=HistoryAction.choices)
    session_id = models.CharField(max_length=128, blank=True)
    related_memory_id = models.BigIntegerField(null=True, blank=True)
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = "memory history entry"
        verbose_name_plural = "memory history"
        ordering = ["at", "id"]


class SourceMessage(models.Model):
    """The words of a message a memory came from (ingested, or given to remember_memory), shown as the
    evidence for review. Kept only while a memory of the user names it in `source_message_ids`: the deletion
    engine removes it with the last such memory, and with its session (memories/purgers.py)."""

    user_id = models.CharField(max_length=128)
    session_id = models.CharField(max_length=128)
    message_id = models.CharField(max_length=128)
    speaker = models.CharField(max_length=128, blank=True)
    text = models.TextField()
    at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user_id", "message_id"], name="unique_source_message")]
        indexes = [models.Index(fields=["user_id", "session_id"], name="source_message_user_session")]

    def __str__(self):
        return f"{self.message_id}: {self.text[:60]}"


class SessionDialogue(models.Model):
    """The last message ingested into a session, as pre_filter reads the next one (ingest/pipeline/dialogue.py):
    a digest of who said it (role and speaker), whether it asked something, and when; none of its words. A
    forget drops the rows of its sessions, and all of the user's when it forgets a person (she may have
    been a speaker)."""

    user_id = models.CharField(max_length=128)
    session_id = models.CharField(max_length=128)
    said_by = models.CharField(max_length=16)
    asked = models.BooleanField()
    at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user_id", "session_id"], name="unique_session_dialogue")]

    def __str__(self):
        return f"{self.user_id}/{self.session_id} at {self.at:%Y-%m-%d %H:%M}"


class UserProfile(models.Model):
    """Per-user profile, created lazily: name, preferences, favorites, assistant name."""

    user_id = models.CharField(max_length=128, unique=True)
    name = models.CharField(max_length=200, blank=True)
    preferences = models.JSONField(default=dict, blank=True)
    favorites = models.JSONField(default=dict, blank=True)
    assistant_name = models.CharField(max_length=100, default="Theo")
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self):
        return f"profile {self.user_id}"


class TurnInjection(models.Model):
    """Which memories per-turn retrieval injected into a session, and when (cooldown, no repeats)."""

    user_id = models.CharField(max_length=128)
    session_id = models.CharField(max_length=128)
    memory_ids = ArrayField(models.BigIntegerField(), default=list)
    injected_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["user_id", "session_id", "injected_at"])]


def new_ingest_job_id() -> str:
    """A job's public id: random, so one job id says nothing about another's."""
    return f"ing_{secrets.token_hex(8)}"


class IngestJobStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"


class IngestJob(models.Model):
    """An ingest sent with "wait": false: its messages, kept until a worker has run them through the pipeline
    (ingest/jobs.py), then its trace, readable at /api/v1/ingest/<public_id> until
    `ingest_jobs.retention_days` after it finished.

    `messages` are the parsed messages (speaker split off, timestamp and id filled in at arrival), emptied once
    the job is done. `progress` holds, by position, the trace entry of each message whose writes committed:
    it is updated in that message's own transaction, so a job a worker died on resumes after the last
    written message and writes none twice. `memory_ids` are the memories it wrote (a forget scrubs their
    content from the trace).
    """

    public_id = models.CharField(max_length=32, unique=True, default=new_ingest_job_id, editable=False)
    user_id = models.CharField(max_length=128)
    session_id = models.CharField(max_length=128)
    source = models.CharField(max_length=24, choices=Source.choices)
    actor = models.CharField(max_length=150, blank=True)
    messages = models.JSONField(default=list, blank=True)
    message_count = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=16, choices=IngestJobStatus.choices, default=IngestJobStatus.QUEUED)
    progress = models.JSONField(default=dict, blank=True)
    result = models.JSONField(null=True, blank=True)
    memory_ids = ArrayField(models.BigIntegerField(), default=list, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    error = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = "ingest job"
        verbose_name_plural = "ingest jobs"
        indexes = [models.Index(fields=["user_id", "status", "id"], name="ingest_job_user_status")]

    def __str__(self):
        return f"{self.public_id} ({self.status})"
