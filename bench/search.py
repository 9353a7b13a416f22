"""Search benchmark: p50/p95 latency of POST /api/v1/search at 10k and 100k memories for one user.

    python bench/search.py --prepare        # embed the synthetic corpus once (cached under var/bench/)
    python bench/search.py --size 10000     # load (once) and measure the 10k case
    python bench/search.py                  # both sizes, each in its own process

Each size lives in its own database (bench_search_<size>) on the embedded
server, kept between runs so the load happens once. Latency is measured through
the DRF API client with token auth, query embedding included, for three modes:
text-only (semantic off), hybrid (full-text + vectors + detected entities) and
hybrid + 2 hops (an entity hint walked 2 hops). EXPLAIN ANALYZE of the lexical
and semantic candidate queries proves the GIN and HNSW indexes are used.
"""
import argparse
import hashlib
import os
import random
import statistics
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "recall_site.settings")
os.environ.setdefault("DEBUG", "false")  # as in production: no per-query debug recording
# One intra-op thread per web process, as recommended for serving (query embeddings are one short
# sentence; extra threads only contend). Override with OMP_NUM_THREADS=2 to compare.
os.environ.setdefault("OMP_NUM_THREADS", "1")

from search_corpus import ORGS, PLACES, memories, people, relations  # noqa: E402

CACHE_DIR = ROOT / "var" / "bench"
CHUNK = 10_000
MAX_SIZE = 100_000
USER_ID = "bench"
ROUNDS = 5
QUERIES = [
    "lunch with Sarah at a cafe", "who leads the quarterly roadmap", "which food do I love from the market",
    "what is the deadline for the budget review", "am I allergic to anything",
    "how do I prepare the board presentation", "what hobbies do I enjoy on weekends",
    "who works at Volkswagen in Berlin", "what does my partner think about the wedding",
    "medication I take every week", "call about the security audit", "dinner recommendations in Lisbon",
    "when is the dentist appointment", "who is planning the apartment move", "feedback on the API redesign",
    "prefers no meetings on Monday mornings", "trail running near Munich", "who argued about buying a house",
    "the hiring plan at Siemens", "what does Alex think about the move", "jazz piano and pottery",
    "where does Priya live", "pricing model presentation", "knee injury after cycling", "espresso or matcha",
    "the customer survey results", "sailing trip to Copenhagen", "who is nervous about the new job",
    "vendor contract at Bosch", "written updates instead of meetings",
]


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



def use_bench_database(size: int) -> None:
    """Create (or reuse) bench_search_<size> and point Django at it."""
    from django.conf import settings
    from django.db import connection

    settings.DATABASES["default"]["TEST"]["NAME"] = f"bench_search_{size}"
    # Persistent connections, as in production (DATABASE_URL sets conn_max_age=60).
    settings.DATABASES["default"]["CONN_MAX_AGE"] = 60
    connection.creation.create_test_db(verbosity=0, autoclobber=False, serialize=False, keepdb=True)


def load_corpus(size: int) -> None:
    """One user with `size` memories (real embeddings), people, orgs, places, aliases and relations."""
    from django.db import connection, transaction

    from entities.models import Alias, Entity, EntityKind, Relation
    from entities.names import normalize_name
    from memories.models import Memory

    if Memory.objects.filter(user_id=USER_ID).count() == size:
        return
    began = time.perf_counter()
    vectors = corpus_embeddings(size)
    rows = memories(size)
    rng = random.Random(99)
    with transaction.atomic():
        Memory.objects.filter(user_id=USER_ID).delete()
        Entity.objects.filter(user_id=USER_ID).delete()
        kinds = [(n, EntityKind.PERSON) for n in people()] + [(n, EntityKind.ORG) for n in ORGS]
        kinds += [(n, EntityKind.PLACE) for n in PLACES]
        entities = Entity.objects.bulk_create(
            [Entity(user_id=USER_ID, kind=EntityKind.SELF, canonical_name="me", normalized_name="me")]
            + [Entity(user_id=USER_ID, kind=kind, canonical_name=name, normalized_name=normalize_name(name))
               for name, kind in kinds])
        by_name = {e.canonical_name: e for e in entities}
        Alias.objects.bulk_create([Alias(user_id=USER_ID, entity=e, alias=e.canonical_name,
                                         normalized=e.normalized_name) for e in entities[1:]])
        Relation.objects.bulk_create([
            Relation(user_id=USER_ID, subject=by_name[s], predicate=p, object=by_name[o])
            for s, p, o in relations(people())])
        with connection.cursor() as cursor:
            cursor.execute("DROP INDEX IF EXISTS memory_embedding_hnsw")
        _insert_memories(rows, vectors, by_name, rng)
    with connection.cursor() as cursor:
        cursor.execute("SET maintenance_work_mem = '1GB'")
        cursor.execute("CREATE INDEX memory_embedding_hnsw ON memories_memory "
                       "USING hnsw (embedding vector_cosine_ops) WITH (m = 16, ef_construction = 64)")
        # Every table the load filled: a graph walk planned without statistics on relations was the slow
        # first 2-hop round after a load.
        for table in ("memories_memory", "memories_memoryentity", "entities_entity", "entities_alias",
                      "entities_relation"):
            cursor.execute(f"VACUUM ANALYZE {table}")
    print(f"loaded {size} memories in {time.perf_counter() - began:.0f}s", flush=True)


def _insert_memories(rows, vectors, by_name, rng, batch: int = 5000) -> None:
    from django.utils import timezone

    from memories.decay import half_life_for
    from memories.models import EmbeddingStatus, Memory, MemoryEntity

    now = timezone.now()
    for start in range(0, len(rows), batch):
        chunk = []
        for (memory_type, domain, sensitive, content, _), vector in zip(rows[start:start + batch],
                                                                       vectors[start:start + batch]):
            when = now - timedelta(days=rng.uniform(0, 120))
            chunk.append(Memory(
                user_id=USER_ID, session_id=f"bench-{rng.randrange(2000)}", type=memory_type, content=content,
                domain=domain, sensitive=sensitive, confidence=round(rng.uniform(0.6, 0.98), 2),
                importance=round(rng.uniform(0.2, 0.9), 2), half_life_days=half_life_for(memory_type, domain),
                created_at=when, last_reinforced_at=when, embedding=vector,
                embedding_status=EmbeddingStatus.READY, source="import"))
        created = Memory.objects.bulk_create(chunk)
        MemoryEntity.objects.bulk_create([
            MemoryEntity(user_id=USER_ID, memory=memory, entity=by_name[name])
            for memory, row in zip(created, rows[start:start + batch]) for name in row[4]
        ], ignore_conflicts=True)


def api_client():
    from django.contrib.auth.models import User
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    from access.models import UserIdGrant

    account, _ = User.objects.get_or_create(username="bench-search")
    UserIdGrant.objects.get_or_create(account=account, user_id=USER_ID)
    token, _ = Token.objects.get_or_create(user=account)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def measure(client, mode: str) -> dict:
    use_semantic(mode != "text-only")
    names = people()
    bodies = []
    for n, query in enumerate(QUERIES):
        body = {"query": query, "scope": {"user_id": USER_ID}, "limit": 20}
        if mode == "hybrid+2hop":
            body["hints"] = {"entities": [names[n * 7 % len(names)]], "hop": 2}
        bodies.append(body)
    for body in bodies[:5]:  # warm-up: model, caches, connections
        client.post("/api/v1/search", body, format="json")
    timings, results = [], []
    for _ in range(ROUNDS):
        for body in bodies:
            began = time.perf_counter()
            response = client.post("/api/v1/search", body, format="json")
            timings.append((time.perf_counter() - began) * 1000)
            assert response.status_code == 200, response.content
            results.append(len(response.json()["results"]))
    return {"mode": mode, "n": len(timings), **latency_figures(timings), "avg_results": sum(results) / len(results)}


def use_semantic(on: bool) -> None:
    """Semantic retrieval (and its rerank) on or off. The canary is reported separately (run_size); on a busy
    shared machine it can time out, which would silently turn the hybrid modes into text-only ones."""
    from django.conf import settings

    from recall_site.config import with_overrides

    settings.RECALL = with_overrides(settings.RECALL, {"memory_semantic": {
        "enabled": on, "rerank_enabled": on, "startup_canary_bypass": True}})


def latency_figures(timings: list[float]) -> dict:
    """p50, p95, p99 and max of latencies in ms."""
    ordered = sorted(timings)
    at = lambda share: ordered[int(share * (len(ordered) - 1))]  # noqa: E731
    return {"p50": statistics.median(ordered), "p95": at(0.95), "p99": at(0.99), "max": ordered[-1]}


def explain_plans(size: int) -> dict:
    """EXPLAIN ANALYZE the lexical and semantic candidate queries exactly as search builds them."""
    from django.db import connection

    from memories.embedding import embed_query
    from memories.retrieval.eligible import eligible_clause
    from memories.retrieval.gating import query_gate
    from memories.retrieval.lexical import query_lexemes, query_terms, ranked_matches
    from memories.retrieval.semantic import hnsw_breadth, nearest, nearest_rows

    query = "lunch with Sarah at a cafe"
    vector = embed_query(query)
    eligible = eligible_clause(user_id=USER_ID, session_id=None, gate=query_gate(query, query_vector=vector))
    with connection.cursor() as cursor:
        terms = query_terms(eligible, query_lexemes(query))
        words = terms.informative or list(terms.weights)
        sql, params = ranked_matches(eligible, terms, words, 50, every_word=not terms.informative)
        cursor.execute(f"EXPLAIN ANALYZE {sql}", params)
        plans = {"lexical": "\n".join(row[0] for row in cursor.fetchall())}
    semantic = nearest_rows(nearest(eligible, vector, 50), f"hnsw.ef_search = {hnsw_breadth(50)}", explain=True)
    plans["semantic"] = "\n".join(row[0] for row in semantic)
    (CACHE_DIR / f"search_explain_{size}.txt").write_text(
        "\n\n".join(f"-- {name}\n{plan}" for name, plan in plans.items()))
    return {"gin_used": "memory_search_vector_gin" in plans["lexical"] or "memory_fts_" in plans["lexical"],
            "hnsw_used": "memory_hnsw_" in plans["semantic"] or "memory_embedding_hnsw" in plans["semantic"]}


def run_size(size: int) -> None:
    from memories.readiness import semantic_status, warm_up

    use_bench_database(size)
    load_corpus(size)
    client = api_client()
    print(f"semantic canary: {semantic_status()}", flush=True)
    warm_up()  # what a web process does at startup (recall_site/wsgi.py)
    print(f"## {size} memories, {len(QUERIES)} queries x {ROUNDS} rounds")
    print("| mode | p50 ms | p95 ms | p99 ms | max ms | avg results |")
    print("|---|---|---|---|---|---|")
    for mode in ("text-only", "hybrid", "hybrid+2hop"):
        figures = measure(client, mode)
        print(f"| {mode} | {figures['p50']:.1f} | {figures['p95']:.1f} | {figures['p99']:.1f} | {figures['max']:.1f} |"
              f" {figures['avg_results']:.1f} |", flush=True)
    plans = explain_plans(size)
    print(f"EXPLAIN ANALYZE: GIN used by lexical = {plans['gin_used']}, HNSW used by semantic = "
          f"{plans['hnsw_used']} (plans in var/bench/search_explain_{size}.txt)")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--prepare", action="store_true", help="only compute the cached embeddings")
    parser.add_argument("--size", type=int, help="corpus size to measure (default: 10000 then 100000)")
    args = parser.parse_args()
    if not args.prepare and args.size is None:
        for size in (10_000, MAX_SIZE):
            subprocess.run([sys.executable, __file__, "--size", str(size)], check=True)
        return
    import logging

    import django

    django.setup()
    logging.getLogger("recall.request").setLevel(logging.WARNING)  # one access line per request otherwise
    if args.prepare:
        corpus_embeddings(MAX_SIZE)
    else:
        run_size(args.size)


if __name__ == "__main__":
    main()
