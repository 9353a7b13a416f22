"""Embeddings are computed with the packaged model after commit, per the memory_semantic.* keys."""
from memories.models import EmbeddingStatus, Memory
from memories.tasks import embed_pending_memories
from tests import factories


def test_background_mode_embeds_after_commit(db, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        row = factories.memory(content="Sarah loves hiking in the Alps")
    row.refresh_from_db()
    assert row.embedding_status == EmbeddingStatus.READY
    assert len(row.embedding) == 384
    assert abs(sum(x * x for x in row.embedding) - 1.0) < 1e-3


def test_semantic_disabled_marks_rows_disabled(db, recall_config):
    recall_config({"memory_semantic": {"enabled": False, "rerank_enabled": False}})
    row = factories.memory(content="prefers tea")
    row.refresh_from_db()
    assert row.embedding_status == EmbeddingStatus.DISABLED


def test_embedding_failure_keeps_the_row_with_status_error(db, settings, django_capture_on_commit_callbacks):
    from memories import embedding

    embedding.get_model.cache_clear()
    settings.RECALL_EMBEDDING_MODEL = "/nonexistent/model"
    try:
        with django_capture_on_commit_callbacks(execute=True):
            row = factories.memory(content="prefers tea")
        assert Memory.objects.get(pk=row.pk).embedding_status == EmbeddingStatus.ERROR
    finally:
        embedding.get_model.cache_clear()
    settings.RECALL_EMBEDDING_MODEL = ""
    assert embed_pending_memories() == 1
    assert Memory.objects.get(pk=row.pk).embedding_status == EmbeddingStatus.READY


def test_stored_texts_get_sentence_transformers_vectors_and_queries_agree_with_them():
    import numpy as np

    from memories import embedding

    texts = ["ok", "Lunch with Sarah at the cafe on Thursday",
             "What does my partner think about the wedding and the apartment move next month?"]
    encoder = embedding.get_model()
    assert encoder.traced is not None
    expected = encoder.model.encode(texts, normalize_embeddings=True)
    assert np.abs(np.array(embedding.embed_texts(texts)) - expected).max() < 1e-5  # one padded batch
    # A query may come from the bfloat16 trace (when this CPU runs it faster): the same direction.
    queries = np.array([embedding.embed_query(text) for text in texts])
    assert (queries * expected).sum(axis=1).min() >= embedding.QUERY_MIN_COSINE
    assert np.allclose(np.linalg.norm(queries, axis=1), 1.0, atol=1e-5)


def test_queries_stay_on_float32_when_the_bfloat16_trace_disagrees(monkeypatch):
    from memories import embedding

    monkeypatch.setattr(embedding, "QUERY_MIN_COSINE", 1.01)  # no reduced-precision vector can agree
    encoder = embedding.Encoder(embedding.get_model().model)
    assert encoder.query_traced is encoder.traced
