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


def test_stored_texts_and_tagged_messages_get_sentence_transformers_vectors_from_onnx_runtime():
    import numpy as np

    from memories import embedding

    texts = ["ok", "Lunch with Sarah at the cafe on Thursday",
             "What does my partner think about the wedding and the apartment move next month?"]
    encoder = embedding.get_model()
    assert encoder.session is not None
    expected = encoder.model.encode(texts, normalize_embeddings=True)
    assert np.abs(np.array(embedding.embed_texts(texts)) - expected).max() < 1e-5  # one padded batch
    queries = np.array([embedding.embed_query(text) for text in texts])
    assert np.abs(queries - expected).max() < 1e-5


def test_a_model_whose_onnx_graph_disagrees_runs_on_its_eager_modules(monkeypatch):
    import numpy as np
    import torch

    from memories import embedding

    exported = embedding._sentence_embeddings

    def off_by_a_little(model):
        module = exported(model)
        forward = module.forward
        module.forward = lambda ids, mask: torch.nn.functional.normalize(forward(ids, mask) + 0.01, dim=1)
        return module

    monkeypatch.setattr(embedding, "_sentence_embeddings", off_by_a_little)
    model = embedding.get_model().model
    encoder = embedding.Encoder(model)
    assert encoder.session is None
    text = "Lunch with Sarah at the cafe on Thursday"
    assert np.abs(encoder.forward([text]).numpy() - model.encode([text], normalize_embeddings=True)).max() < 1e-5


MEMORIES = ["Sarah loves hiking in the Alps", "I am allergic to penicillin", "The budget review is due on Friday",
            "Tom's daughter turns five in May", "We argued about buying a house in Potsdam",
            "I take vitamin D every morning", "Priya lives in Lisbon near the river",
            "The board presentation needs new pricing slides"]
QUESTIONS = ["where does Priya live", "am I allergic to anything", "what is the deadline for the budget review",
             "who argued about buying a house", "what does Sarah do on weekends", "medication I take every day"]


def test_search_queries_use_the_8_bit_session_and_find_what_float32_finds():
    import numpy as np

    from memories import embedding

    encoder = embedding.get_model()
    assert encoder.query_session is not None
    stored = np.array(embedding.embed_texts(MEMORIES))
    for question in QUESTIONS:
        exact = np.array(embedding.embed_query(question))
        quantized = np.array(embedding.embed_search_query(question))
        assert abs(np.linalg.norm(quantized) - 1) < 1e-4
        assert quantized @ exact >= 0.995
        assert list(np.argsort(-(stored @ quantized))[:3]) == list(np.argsort(-(stored @ exact))[:3]), question


def test_a_quantized_session_that_disagrees_leaves_queries_on_float32(monkeypatch):
    import numpy as np

    from memories import embedding

    monkeypatch.setattr(embedding, "QUERY_MIN_COSINE", 1.01)  # no 8-bit vector agrees that well
    encoder = embedding.Encoder(embedding.get_model().model)
    assert encoder.session is not None and encoder.query_session is None
    monkeypatch.setattr(embedding, "get_model", lambda: encoder)
    question = QUESTIONS[0]
    assert np.abs(np.array(embedding.embed_search_query(question)) - np.array(embedding.embed_query(question))).max() < 1e-6


def test_texts_batched_by_length_come_back_in_the_order_given():
    from memories.embedding import embed_texts

    texts = ["A long message about the quarterly budget review, the hiring plan and the offsite in Lisbon. " * 4,
             "Green tea.", "Dinner with Sarah on Friday at the Italian place near the station."]
    one_by_one = [embed_texts([text])[0] for text in texts]
    together = embed_texts(texts, batch_size=2)  # batches: the two shorter, then the long one
    for alone, batched in zip(one_by_one, together):
        assert sum(a * b for a, b in zip(alone, batched)) > 0.9999
