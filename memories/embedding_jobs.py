"""Embedding jobs: a memory written is embedded after commit (in the background by default, per the
memory_semantic.* write mode), with its sentences (memories/sentences.py). The task entry points that run
them are memories/tasks.py's; jobs are enqueued by that name, so this module imports no task module."""
import logging
import threading
from collections import defaultdict
from contextlib import contextmanager

from django.db import connection, transaction
from django_q.tasks import async_task

from entities.models import EntityKind
from memories.embedding import embed_texts
from memories.inherited_vectors import vectors_inherited
from memories.models import EmbeddingStatus, Memory, MemoryEntity, MemorySentence
from memories.sentences import embedding_text, sentence_texts
from recall_site.config import recall_setting

logger = logging.getLogger(__name__)
_coalesced = threading.local()  # .ids: memory ids collected by an open `embedding_jobs_coalesced()` block
EMBED_MEMORIES_TASK = "memories.tasks.embed_memories"  # tests/memories/test_tasks.py checks it is that task


def enqueue_embedding(memory_ids: list[int]) -> None:
    """After commit, embed these memories per the memory_semantic.* write mode."""
    if not memory_ids:
        return
    semantic = recall_setting("memory_semantic")
    if not semantic["enabled"]:
        Memory.objects.filter(pk__in=memory_ids).update(embedding_status=EmbeddingStatus.DISABLED)
        return
    if semantic["background_embedding_enabled"]:
        transaction.on_commit(lambda: _enqueue_background(list(memory_ids)))
    elif semantic["inline_embedding_on_write_when_background_disabled"]:
        transaction.on_commit(lambda: embed_memories(list(memory_ids)))
    else:
        Memory.objects.filter(pk__in=memory_ids).update(embedding_status=EmbeddingStatus.DISABLED)


def _enqueue_background(memory_ids: list[int]) -> None:
    collected = getattr(_coalesced, "ids", None)
    if collected is not None:
        collected.extend(memory_ids)
    else:
        _enqueue_job(memory_ids)


def _enqueue_job(memory_ids: list[int]) -> None:
    """One background embedding job, in a transaction of its own that does not wait for its WAL flush: a job
    lost to a crash is redone by the scheduled embed_pending_memories, as its memories stay pending. In a
    transaction django-q's broker also keeps the connection (outside one it closes "old" connections, which
    hands a pooled one back mid-request, or reconnects without a pool). Inside a caller's transaction it
    commits with that one (whose durability it leaves alone)."""
    if connection.in_atomic_block:
        async_task(EMBED_MEMORIES_TASK, memory_ids)
        return
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL synchronous_commit = off")
        async_task(EMBED_MEMORIES_TASK, memory_ids)


@contextmanager
def embedding_jobs_coalesced():
    """Background embedding jobs of writes committed inside this block become one job, enqueued at its end, or
    inside its last transaction by `enqueue_coalesced_job`.

    Writes committed after the block (under an outer transaction) enqueue their own job as usual.
    """
    if getattr(_coalesced, "ids", None) is not None:  # an enclosing block collects them
        yield
        return
    _coalesced.ids = []
    try:
        yield
    finally:
        memory_ids, _coalesced.ids = _coalesced.ids, None
        if memory_ids:
            _enqueue_job(memory_ids)


def enqueue_coalesced_job(memory_ids: list[int]) -> None:
    """Inside the last transaction of an `embedding_jobs_coalesced()` block, when no outer transaction holds it:
    enqueue the block's job now, with `memory_ids` (those this transaction wrote), so that it commits with them
    and costs no transaction of its own. Should this transaction roll back, the block's end enqueues what the
    committed ones wrote, as before."""
    collected = getattr(_coalesced, "ids", None)
    semantic = recall_setting("memory_semantic")
    if collected is None or not (semantic["enabled"] and semantic["background_embedding_enabled"]):
        return
    taken = set(collected) | set(memory_ids)
    if not taken:
        return
    _enqueue_job(sorted(taken))  # in this transaction: it commits with it

    def drop_taken():  # after the commit, when this transaction's own ids have joined `collected` too
        collected[:] = [pk for pk in collected if pk not in taken]

    transaction.on_commit(drop_taken)


def embed_memories(memory_ids: list[int]) -> int:
    """Embed the given memories that still need it, each with its sentences (memories/sentences.py).
    Fail-open: errors mark the row, never lose it."""
    rows = list(
        Memory.objects.filter(pk__in=memory_ids)
        .exclude(embedding_status=EmbeddingStatus.READY)
        .values_list("pk", "user_id", "content")
    )
    if not rows:
        return 0
    split = recall_setting("memory_semantic.sentence_vectors")
    people = _linked_people([pk for pk, _, _ in rows])
    sentences = [sentence_texts(content, people[pk]) if split else [] for pk, _, content in rows]
    texts = [embedding_text(content, people[pk]) for pk, _, content in rows]
    texts += [text for texts_of in sentences for text in texts_of]
    try:
        vectors = embed_texts(texts, recall_setting("memory_semantic.embedding_batch_size"))
    except Exception:  # noqa: BLE001 - any model failure must leave the rows stored
        logger.exception("embedding failed for %d memories", len(rows))
        Memory.objects.filter(pk__in=[pk for pk, _, _ in rows]).update(embedding_status=EmbeddingStatus.ERROR)
        return 0
    done, sentence_vectors, embedded = 0, iter(vectors[len(rows):]), defaultdict(list)
    for (pk, user_id, content), vector, texts in zip(rows, vectors, sentences):
        own = [next(sentence_vectors) for _ in texts]
        with transaction.atomic():
            # Only store if the content is unchanged since it was read (an edit re-enqueues).
            stored = Memory.objects.filter(user_id=user_id, pk=pk, content=content).update(  # one partition
                embedding=vector, embedding_status=EmbeddingStatus.READY)
            if stored and own:  # an edit deleted the old text's sentences already; this replaces a rerun's
                MemorySentence.objects.filter(user_id=user_id, memory_id=pk, inherited_from__isnull=True).delete()
                MemorySentence.objects.bulk_create(
                    MemorySentence(user_id=user_id, memory_id=pk, embedding=each) for each in own)
        done += stored
        if stored:
            embedded[user_id].append(pk)
    for user_id, pks in embedded.items():  # what these memories superseded, or were superseded by, inherits anew
        vectors_inherited(user_id, pks)
    return done


def _linked_people(memory_ids: list[int]) -> defaultdict[int, set[str]]:
    """memory id → the names of the persons it is linked to (a speaker's line links its speaker)."""
    people = defaultdict(set)
    links = MemoryEntity.objects.filter(memory_id__in=memory_ids, entity__kind=EntityKind.PERSON)
    for memory_id, name in links.values_list("memory_id", "entity__canonical_name"):
        people[memory_id].add(name)
    return people


def embed_pending_memories(limit: int = 512) -> int:
    """Scheduled: embed pending and errored memories in batches (the retry path)."""
    if not recall_setting("memory_semantic.enabled"):
        return 0
    ids = list(
        Memory.objects.filter(embedding_status__in=[EmbeddingStatus.PENDING, EmbeddingStatus.ERROR])
        .order_by("pk").values_list("pk", flat=True)[:limit]
    )
    return embed_memories(ids)
