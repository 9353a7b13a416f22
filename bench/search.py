"""Search benchmark: p50/p95 latency of POST /api/v1/search at 10k and 100k memories for one user.

    python bench/search.py --prepare        # embed the synthetic corpus once (cached under var/bench/)
    python bench/search.py --size 10000     # load (once) and measure the 10k case
    python bench/search.py --size 100000

Each size lives in its own database (bench_search_<size>), kept between runs.
"""
import argparse
import hashlib
import os
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "recall_site.settings")

from search_corpus import memories  # noqa: E402

CACHE_DIR = ROOT / "var" / "bench"
CHUNK = 10_000
MAX_SIZE = 100_000


def corpus_embeddings(size: int) -> np.ndarray:
    """Embeddings of the first `size` corpus texts, computed once per 10k chunk and cached."""
    from memories.embedding import embed_texts

    texts = [row[3] for row in memories(size)]
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    parts = []
    for start in range(0, size, CHUNK):
        chunk = texts[start:start + CHUNK]
        digest = hashlib.sha1("\n".join(chunk).encode()).hexdigest()[:12]
        path = CACHE_DIR / f"search_{start // CHUNK:02d}_{digest}.npy"
        if not path.exists():
            began = time.perf_counter()
            vectors = np.asarray(embed_texts(chunk, batch_size=128), dtype=np.float32)
            np.save(path, vectors)
            print(f"embedded {len(chunk)} texts in {time.perf_counter() - began:.1f}s -> {path.name}", flush=True)
        parts.append(np.load(path))
    return np.concatenate(parts)[:size]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--prepare", action="store_true", help="only compute the cached embeddings")
    parser.add_argument("--size", type=int, action="append", help="corpus size(s) to measure")
    args = parser.parse_args()
    import django

    django.setup()
    if args.prepare:
        corpus_embeddings(MAX_SIZE)
        return


if __name__ == "__main__":
    main()
