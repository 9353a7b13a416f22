"""Inline write-time embedding: background off + inline on embeds during the write's commit."""
from django_q.models import OrmQ, Task

from memories.models import EmbeddingStatus, Memory
from tests import factories


def test_inline_mode_embeds_at_write_without_queueing(recall_config, db, django_capture_on_commit_callbacks):
    recall_config({"memory_semantic": {"background_embedding_enabled": False,
                                       "inline_embedding_on_write_when_background_disabled": True}})
    with django_capture_on_commit_callbacks(execute=True):
        row = factories.memory(content="Prefers oat milk in coffee")
    row = Memory.objects.get(pk=row.pk)
    assert row.embedding_status == EmbeddingStatus.READY and len(row.embedding) == 384
    assert not Task.objects.exists() and not OrmQ.objects.exists()


def test_both_modes_off_writes_lexical_only(recall_config, db, django_capture_on_commit_callbacks):
    recall_config({"memory_semantic": {"background_embedding_enabled": False}})
    with django_capture_on_commit_callbacks(execute=True):
        row = factories.memory(content="Prefers oat milk in coffee")
    row = Memory.objects.get(pk=row.pk)
    assert row.embedding_status == EmbeddingStatus.DISABLED and row.embedding is None
