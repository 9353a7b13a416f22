"""Search benchmark: p50/p95 latency of POST /api/v1/search at 10k and 100k memories for one user.

    python bench/search.py --prepare        # embed the synthetic corpus once (cached under var/bench/)
    python bench/search.py --size 10000     # load (once) and measure the 10k case
    python bench/search.py --served         # and through a real `manage.py serve` beside it (bench/served.py)
    python bench/search.py --size 10000 --served --soak 60   # then 64 keep-alive clients for 60 s
    python bench/search.py                  # both sizes, each in its own process
    python bench/search.py --size 1000000   # 1M: only when asked (see run_million)
    python bench/search.py --size 1000000 --users-scale 0.02   # the same shape at 2% (smoke test)

Each size lives in its own database (bench_search_<size>) on the embedded
server, kept between runs so the load happens once. Latency is measured through
the DRF API client with token auth, query embedding included, for three modes:
text-only (semantic off), hybrid (full-text + vectors + detected entities) and
hybrid + 2 hops (an entity hint walked 2 hops). EXPLAIN ANALYZE of the lexical
and semantic candidate queries proves the GIN and HNSW indexes are used.

The 1M case (bench_search_1000000) holds 2M memories: user `bench` with 1M (ten
copies of the 100k corpus) and ten users bench-0 … bench-9 with 100k each, each
user with its own entity graph. Copy 0 is the corpus as embedded; copy k >= 1
has its vectors perturbed by seeded gaussian noise (sigma NOISE, renormalised),
so the HNSW graph holds no exact duplicates; no text is embedded again. The load
drops the secondary indexes, COPYs the rows and rebuilds each index with its
original definition. Latency is measured for `bench` (1M) and `bench-0` (100k in
the same table).
"""
import argparse
import collections
import hashlib
import os
import random
import resource
import statistics
import subprocess
import sys
import threading
import time
from datetime import timedelta
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
import bench_path  # noqa: E402, F401 - first: the apps before this directory on sys.path

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "recall_site.settings")
os.environ.setdefault("DEBUG", "false")  # as in production: no per-query debug recording
# One intra-op thread per web process, as recommended for serving (query embeddings are one short
# sentence; extra threads only contend). Override with OMP_NUM_THREADS=2 to compare.
os.environ.setdefault("OMP_NUM_THREADS", "1")

from search_corpus import ORGS, PLACES, memories, people, relations  # noqa: E402

CACHE_DIR = ROOT / "var" / "bench"
CHUNK = 10_000
MAX_SIZE = 100_000
MILLION = 1_000_000
USER_ID = "bench"
# The 1M case: `bench` holds corpus copies 0-9, bench-<i> holds copy 10 + i (all vectors distinct).
MILLION_LAYOUT = {USER_ID: list(range(10)), **{f"bench-{i}": [10 + i] for i in range(10)}}
NOISE = 0.02  # per-dimension sigma of the perturbation of corpus copies k >= 1
SENTENCE_NOISE = 0.04  # of a memory's vector for its stand-in sentence vectors
ROUNDS = 5
SOAK_CLIENTS = 64  # #31: 64 parallel keep-alive clients for 60 s
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


def corpus_embeddings(size: int, embed: bool = True) -> np.ndarray:
    """Embeddings of the first `size` corpus texts, computed once per 10k chunk and cached (only read from the
    cache unless `embed`)."""
    from memories.embedding import embed_texts

    texts = [row[3] for row in memories(size)]
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    parts = []
    for start in range(0, size, CHUNK):
        chunk = texts[start:start + CHUNK]
        digest = hashlib.sha1("\n".join(chunk).encode()).hexdigest()[:12]
        path = CACHE_DIR / f"search_{start // CHUNK:02d}_{digest}.npy"
        if not path.exists():
            if not embed:
                raise SystemExit(f"{path} is missing: run bench/search.py --prepare first")
            began = time.perf_counter()
            vectors = np.asarray(embed_texts(chunk, batch_size=128), dtype=np.float32)
            np.save(path, vectors)
            print(f"embedded {len(chunk)} texts in {time.perf_counter() - began:.1f}s -> {path.name}", flush=True)
        parts.append(np.load(path))
    return np.concatenate(parts)[:size]



def use_bench_database(size: int | str) -> None:
    """Create (or reuse) bench_search_<size> and point Django at it."""
    from django.conf import settings
    from django.db import connection

    settings.DATABASES["default"]["TEST"]["NAME"] = f"bench_search_{size}"
    # Connections are kept, as in production: the settings' pool (RECALL_DB_POOL_SIZE), else persistent ones.
    if not settings.DATABASES["default"]["OPTIONS"].get("pool"):
        settings.DATABASES["default"]["CONN_MAX_AGE"] = 60
    connection.creation.create_test_db(verbosity=0, autoclobber=False, serialize=False, keepdb=True)


def load_corpus(size: int) -> None:
    """One user with `size` memories (real embeddings), people, orgs, places, aliases and relations."""
    from django.db import connection, transaction

    from entities.models import Entity
    from memories.models import Memory, MemorySentence

    if Memory.objects.filter(user_id=USER_ID).count() == size:
        if not MemorySentence.objects.filter(user_id=USER_ID).exists():  # a database loaded before sentences
            _load_sentences(USER_ID, corpus_embeddings(size))
        _index_and_analyze()  # a load cut short before its index was built
        return
    began = time.perf_counter()
    vectors = corpus_embeddings(size)
    rows = memories(size)
    rng = random.Random(99)
    with transaction.atomic():
        Memory.objects.filter(user_id=USER_ID).delete()
        Entity.objects.filter(user_id=USER_ID).delete()
        by_name = create_graph(USER_ID)
        with connection.cursor() as cursor:
            cursor.execute("DROP INDEX IF EXISTS memory_embedding_hnsw")
        _insert_memories(rows, vectors, by_name, rng)
    _load_sentences(USER_ID, vectors)
    _index_and_analyze()
    print(f"loaded {size} memories in {time.perf_counter() - began:.0f}s", flush=True)


def _index_and_analyze() -> None:
    """The memory table's HNSW index (dropped for the load) built once after it, and statistics on every table
    the load filled: a graph walk planned without statistics on relations was the slow first 2-hop round."""
    from django.db import connection

    from memories.partitions import name_partition_indexes

    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_indexes WHERE indexname = 'memory_embedding_hnsw'")
        if cursor.fetchone():
            return
        cursor.execute("SET maintenance_work_mem = '1GB'")
        cursor.execute("CREATE INDEX memory_embedding_hnsw ON memories_memory "
                       "USING hnsw (embedding vector_cosine_ops) WITH (m = 16, ef_construction = 64)")
        name_partition_indexes(cursor, "memories_memory")
        for table in ("memories_memory", "memories_memoryentity", "entities_entity", "entities_alias",
                      "entities_relation"):
            cursor.execute(f"VACUUM ANALYZE {table}")


def _load_sentences(user_id: str, vectors: np.ndarray) -> None:
    """Sentence vectors (memories/sentences.py) as the LoCoMo conversations have them, ~2.5 per memory: the
    corpus is one sentence per memory, so each memory gets 2 or 3 of its own vector perturbed (sigma
    SENTENCE_NOISE), for the sentence scan and lookups to cost what they cost on real talk."""
    from django.db import connection, transaction

    from memories.models import Memory
    from memories.partitions import name_partition_indexes

    ids = list(Memory.objects.filter(user_id=user_id).order_by("pk").values_list("pk", flat=True))
    rng = np.random.default_rng(7)
    header = np.array([vectors.shape[1], 0], dtype=">u2").tobytes()

    def rows():
        for pk, vector in zip(ids, vectors):
            for _ in range(2 + int(rng.random() < 0.5)):
                noisy = vector + rng.standard_normal(vector.shape, dtype=np.float32) * SENTENCE_NOISE
                yield user_id, pk, header + (noisy / np.linalg.norm(noisy)).astype(">f4").tobytes()

    began = time.perf_counter()
    with transaction.atomic(), connection.cursor() as wrapper:
        wrapper.execute("TRUNCATE memories_memorysentence")
        # Built once after the COPY: 250k rows inserted into the HNSW one by one took over ten minutes.
        wrapper.execute("DROP INDEX IF EXISTS memory_sentence_hnsw")
        count = _copy(wrapper.cursor, "memories_memorysentence",
                      [("user_id", "text"), ("memory_id", "int8"), ("embedding", "bytea")], rows())
        wrapper.execute("SET CONSTRAINTS ALL IMMEDIATE")  # the deferred foreign-key checks, before the index
        wrapper.execute("SET LOCAL maintenance_work_mem = '1GB'")
        wrapper.execute("CREATE INDEX memory_sentence_hnsw ON memories_memorysentence "
                        "USING hnsw (embedding vector_cosine_ops) WITH (m = 16, ef_construction = 64)")
        name_partition_indexes(wrapper, "memories_memorysentence")
        wrapper.execute("ANALYZE memories_memorysentence")
    print(f"loaded {count} sentence vectors in {time.perf_counter() - began:.0f}s", flush=True)


def create_graph(user_id: str) -> dict:
    """The user's self entity, people, orgs and places (one alias each) and their relations: {name: Entity}."""
    from entities.models import Alias, Entity, EntityKind, Relation
    from entities.names import normalize_name

    kinds = [(n, EntityKind.PERSON) for n in people()] + [(n, EntityKind.ORG) for n in ORGS]
    kinds += [(n, EntityKind.PLACE) for n in PLACES]
    entities = Entity.objects.bulk_create(
        [Entity(user_id=user_id, kind=EntityKind.SELF, canonical_name="me", normalized_name="me")]
        + [Entity(user_id=user_id, kind=kind, canonical_name=name, normalized_name=normalize_name(name))
           for name, kind in kinds])
    by_name = {e.canonical_name: e for e in entities}
    Alias.objects.bulk_create([Alias(user_id=user_id, entity=e, alias=e.canonical_name,
                                     normalized=e.normalized_name) for e in entities[1:]])
    Relation.objects.bulk_create([
        Relation(user_id=user_id, subject=by_name[s], predicate=p, object=by_name[o])
        for s, p, o in relations(people())])
    return by_name


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


def api_client(user: str = USER_ID):
    from django.contrib.auth.models import User
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    from access.models import UserIdGrant

    account, _ = User.objects.get_or_create(username="bench-search")
    UserIdGrant.objects.get_or_create(account=account, user_id=user)
    token, _ = Token.objects.get_or_create(user=account)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def search_bodies(mode: str, user: str = USER_ID) -> list[dict]:
    names = people()
    bodies = []
    for n, query in enumerate(QUERIES):
        body = {"query": query, "scope": {"user_id": user}, "limit": 20}
        if mode == "hybrid+2hop":
            body["hints"] = {"entities": [names[n * 7 % len(names)]], "hop": 2}
        bodies.append(body)
    return bodies


def measure(client, mode: str, user: str = USER_ID) -> dict:
    use_semantic(mode != "text-only")
    bodies = search_bodies(mode, user)
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
    # Rounds 2-5 apart: the first meets 25 queries the warm-up did not run (cold caches and pages).
    warm = latency_figures(timings[len(bodies):])
    return {"mode": mode, "n": len(timings), **latency_figures(timings), "avg_results": sum(results) / len(results),
            "warm_p50": warm["p50"], "warm_p95": warm["p95"]}


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


def explain_plans(size: int | str, user: str = USER_ID) -> dict:
    """EXPLAIN ANALYZE the lexical candidate query and the statement that fetches the semantic and graph
    candidates (search.retrieval.candidates) exactly as a search builds them."""
    from django.db import connection

    from memories.embedding import embed_query
    from search.retrieval import search_memories
    from search.retrieval.eligible import eligible_clause
    from search.retrieval.gating import query_gate
    from search.retrieval.lexical import query_lexemes, query_terms, ranked_matches
    from search.retrieval.semantic import nearest_rows

    query = "lunch with Sarah at a cafe"
    vector = embed_query(query)
    eligible = eligible_clause(user_id=user, session_id=None, gate=query_gate(query, query_vector=vector))
    with connection.cursor() as cursor:
        terms = query_terms(eligible, query_lexemes(query))
        words = terms.informative or list(terms.weights)
        sql, params = ranked_matches(eligible, terms, words, 50, every_word=not terms.informative)
        cursor.execute(f"EXPLAIN ANALYZE {sql}", params)
        plans = {"lexical": "\n".join(row[0] for row in cursor.fetchall())}
    statements = []

    def capture(execute, sql, params, many, context):
        if "candidate AS (" in sql:
            statements.append((sql, params))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(capture):
        search_memories(user_id=user, query=query)
    plans["candidates"] = "\n".join(row[0] for row in nearest_rows(statements[0], None, explain=True))
    (CACHE_DIR / f"search_explain_{size}.txt").write_text(
        "\n\n".join(f"-- {name}\n{plan}" for name, plan in plans.items()))
    return {"gin_used": "memory_words" in plans["lexical"],
            "hnsw_used": "memory_hnsw_" in plans["candidates"] or "memory_embedding_hnsw" in plans["candidates"]}


def run_size(size: int, served: bool = False, soak_seconds: float = 0) -> None:
    from memories.readiness import semantic_status
    from recall_site.startup import warm_up

    use_bench_database(size)
    load_corpus(size)
    client = api_client()
    print(f"semantic canary: {semantic_status()}", flush=True)
    warm_up()  # what a web process does at startup (recall_site/wsgi.py)
    latency_table(f"## {size} memories, {len(QUERIES)} queries x {ROUNDS} rounds", client, USER_ID)
    if served:
        served_table(size, soak_seconds)
    plans = explain_plans(size)
    print(f"EXPLAIN ANALYZE: GIN used by lexical = {plans['gin_used']}, HNSW used by semantic = "
          f"{plans['hnsw_used']} (plans in var/bench/search_explain_{size}.txt)")


def served_table(size: int, soak_seconds: float = 0) -> None:
    """The same searches through a real `manage.py serve` on this database (bench/served.py), interleaved
    with the in-process ones: each request in-process (test client), then served over one keep-alive
    connection, then served on a new connection, so all three meet the same load on a shared host."""
    from django.db import connection
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    from served import ServedClient, serving

    token = Token.objects.get(user__username="bench-search").key
    in_process = api_client()
    use_semantic(True)
    connection.close()
    with serving(connection.settings_dict) as port:
        probes = {"keep-alive": ServedClient(port), "new connection": ServedClient(port, keep_alive=False)}
        clients = {"keep-alive": ServedClient(port, token=token),
                   "new connection": ServedClient(port, token=token, keep_alive=False)}
        print(f"## served: manage.py serve, 2 web workers, {size} memories, {len(QUERIES)} queries x {ROUNDS} "
              "rounds; each request in-process, served keep-alive, served on a new connection in turn")
        print("| request | in-process p50 / p95 ms | served keep-alive p50 / p95 | served new connection p50 / p95 |"
              " keep-alive minus in-process p50 / p95 |")
        print("|---|---|---|---|---|")
        _interleaved_row("GET /api/v1/health (no token, as a probe)", APIClient(), probes, "GET", "/api/v1/health",
                         [None] * 300)
        for mode in ("hybrid", "hybrid+2hop"):
            _interleaved_row(f"search {mode}", in_process, clients, "POST", "/api/v1/search",
                             search_bodies(mode) * ROUNDS)
        for client in [*probes.values(), *clients.values()]:
            client.close()
        if soak_seconds:
            soak_table(port, token, soak_seconds)


def web_connections() -> int:
    """PostgreSQL connections the served web workers hold (serve names them recall-web)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'recall-web'")
        return cursor.fetchone()[0]


def soak_table(port: int, token: str, seconds: float, clients: int = SOAK_CLIENTS) -> None:
    """`clients` keep-alive clients searching (hybrid) as fast as they are answered for `seconds`: statuses,
    latency, the web workers' PostgreSQL connections (resting, peak, seconds back to resting after)."""
    from django.conf import settings

    from served import ServedClient

    bodies = search_bodies("hybrid")
    lock, stop = threading.Lock(), threading.Event()
    statuses, latencies = collections.Counter(), []

    def client(n: int) -> None:
        served = ServedClient(port, token=token)
        mine = []
        try:
            while not stop.is_set():
                status, ms = served.request("POST", "/api/v1/search", bodies[n % len(bodies)])
                mine.append((status, ms))
                n += 1
        finally:
            served.close()
            with lock:
                statuses.update(status for status, _ in mine)
                latencies.extend(ms for _, ms in mine)

    resting = web_connections()
    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    for thread in threads:
        thread.start()
    began, peak = time.monotonic(), resting
    while time.monotonic() - began < seconds:
        peak = max(peak, web_connections())
        time.sleep(0.25)
    stop.set()
    for thread in threads:
        thread.join()
    ended, after = time.monotonic(), web_connections()
    while after > resting and time.monotonic() - ended < 30:
        time.sleep(0.1)
        after = web_connections()
    back_in = time.monotonic() - ended
    f = latency_figures(latencies)
    pool_total = 2 * settings.DB_POOL_SIZE
    print(f"## soak: {clients} keep-alive clients, search hybrid for {seconds:.0f} s against manage.py serve "
          f"(2 web workers, pool {settings.DB_POOL_SIZE} each)")
    print(f"requests {len(latencies)} ({len(latencies) / seconds:.0f}/s), statuses {dict(sorted(statuses.items()))}, "
          f"5xx {sum(n for status, n in statuses.items() if status >= 500)}")
    print(f"latency p50 {f['p50']:.1f} ms, p95 {f['p95']:.1f} ms, p99 {f['p99']:.1f} ms")
    print(f"web PostgreSQL connections: resting {resting}, peak {peak} (pool total {pool_total}), "
          f"{after} {back_in:.1f} s after the end", flush=True)


def _interleaved_row(request: str, in_process, clients: dict, method: str, path: str, bodies: list) -> None:
    timings = {"in-process": [], **{label: [] for label in clients}}
    for n, body in enumerate(bodies[:10] + bodies):  # the first 10: warm-up, not counted
        began = time.perf_counter()
        if method == "GET":
            response = in_process.get(path)
        else:
            response = in_process.post(path, body, format="json")
        answers = {"in-process": (response.status_code, (time.perf_counter() - began) * 1000)}
        answers |= {label: client.request(method, path, body) for label, client in clients.items()}
        assert {status for status, _ in answers.values()} == {200}, answers
        if n >= 10:
            for label, (_, ms) in answers.items():
                timings[label].append(ms)
    f = {label: latency_figures(ms) for label, ms in timings.items()}
    cells = [f"{f[label]['p50']:.1f} / {f[label]['p95']:.1f}" for label in timings]
    base, served = f["in-process"], f["keep-alive"]
    print(f"| {request} | {' | '.join(cells)} | {served['p50'] - base['p50']:+.1f} / {served['p95'] - base['p95']:+.1f} |",
          flush=True)


def million_label(scale: float) -> str:
    """The database (bench_search_<label>) and explain-file label of the 1M case at `scale`."""
    return str(MILLION) if scale == 1 else f"{MILLION}_small"


def perturbed(vectors: np.ndarray, copy: int) -> np.ndarray:
    """Corpus copy `copy`: the vectors themselves for copy 0, else plus seeded gaussian noise, renormalised."""
    if copy == 0:
        return vectors
    noisy = vectors + np.random.default_rng(copy).standard_normal(vectors.shape, dtype=np.float32) * NOISE
    return noisy / np.linalg.norm(noisy, axis=1, keepdims=True)


# memories_memory columns the COPY fills, with the types of their binary values. `search_vector` is generated;
# the nullable ones left out (valid_from, superseded_by, subject, ...) stay NULL. The vector goes as bytes in
# pgvector's binary format (the server's vector_recv reads them), so Django's connection needs no adapter.
MEMORY_COPY_COLUMNS = [
    ("id", "int8"), ("user_id", "text"), ("session_id", "text"), ("scope", "text"), ("type", "text"),
    ("content", "text"), ("domain", "text"), ("sensitive", "bool"), ("confidence", "float8"),
    ("importance", "float8"), ("occurrences", "int4"), ("half_life_days", "float8"),
    ("last_reinforced_at", "timestamptz"), ("created_at", "timestamptz"), ("updated_at", "timestamptz"),
    ("source", "text"), ("source_message_ids", "varchar[]"), ("pinned", "bool"), ("needs_review", "bool"),
    ("review_reason", "text"), ("status", "text"), ("attribute", "text"), ("details", "jsonb"),
    ("embedding", "bytea"), ("embedding_status", "text"),
]
LINK_COPY_COLUMNS = [("user_id", "text"), ("memory_id", "int8"), ("entity_id", "int8"), ("role", "text")]
LOADED_TABLES = ("memories_memory", "memories_memoryentity", "entities_entity", "entities_alias",
                 "entities_relation")


def _copy(cursor, table: str, columns: list[tuple[str, str]], rows) -> int:
    """COPY `rows` into `table` in binary, FREEZE (the table was truncated in this transaction) unless it is
    partitioned, where PostgreSQL does not take FREEZE (the VACUUM after the load sets what it would)."""
    names = ", ".join(name for name, _ in columns)
    cursor.execute("SELECT relkind = 'p' FROM pg_class WHERE oid = %s::regclass", [table])
    freeze = "" if cursor.fetchone()[0] else ", FREEZE"
    count = 0
    with cursor.copy(f"COPY {table} ({names}) FROM STDIN WITH (FORMAT BINARY{freeze})") as copy:
        copy.set_types([kind for _, kind in columns])
        for row in rows:
            copy.write_row(row)
            count += 1
    return count


def _drop_secondary_indexes(cursor, table: str) -> list[tuple[str, str]]:
    """Drop the indexes of `table` that back no constraint; their (name, definition) to build them again."""
    from memories.partitions import secondary_indexes

    dropped = secondary_indexes(cursor, table)
    for name, _ in dropped:
        cursor.execute(f'DROP INDEX "{name}"')
    return dropped


def rebuild_indexes(cursor, dropped: list[tuple[str, tuple[str, str]]], index_memory: str) -> None:
    """Build again the indexes `_drop_secondary_indexes` dropped (inside the load's transaction), printing each
    one's time and PostgreSQL's notices."""
    from django.db import connection

    from memories.partitions import name_partition_indexes

    cursor.execute("SELECT set_config('maintenance_work_mem', %s, true)", [index_memory])
    cursor.execute("SET LOCAL max_parallel_maintenance_workers = 1")
    notice = lambda diagnostic: print(f"  NOTICE: {diagnostic.message_primary}", flush=True)  # noqa: E731
    connection.connection.add_notice_handler(notice)
    try:
        for table, (name, definition) in dropped:
            step = time.perf_counter()
            cursor.execute(definition)
            print(f"CREATE INDEX {name} ({table}): {time.perf_counter() - step:.1f}s", flush=True)
        for table in dict.fromkeys(table for table, _ in dropped):
            name_partition_indexes(cursor, table)
    finally:
        connection.connection.remove_notice_handler(notice)


def vacuum_analyze_loaded() -> None:
    from django.db import connection

    step = time.perf_counter()
    with connection.cursor() as cursor:
        for table in LOADED_TABLES:
            cursor.execute(f"VACUUM ANALYZE {table}")
    print(f"VACUUM ANALYZE: {time.perf_counter() - step:.1f}s", flush=True)


def load_million(scale: float, index_memory: str = "5GB") -> None:
    """The 1M case at `scale` (1: 2M memories): per user of MILLION_LAYOUT its entity graph and
    round(100k * scale) memories per corpus copy, COPYed with the secondary indexes dropped, which are then
    rebuilt from their saved definitions with `index_memory` of maintenance_work_mem. One transaction, so an
    interrupted load leaves the previous state.

    An HNSW graph takes ~2.25 kB a vector while it is built: 2GB holds ~950k of them. A larger index is
    finished by inserts on disk, several times slower (pgvector's NOTICE, printed, says after how many)."""
    from django.db import connection, transaction
    from django.utils import timezone

    from memories.decay import half_life_for
    from memories.models import EmbeddingStatus, Scope, Source, Status

    copy_size = round(MAX_SIZE * scale)
    expected = {user: copy_size * len(copies) for user, copies in MILLION_LAYOUT.items()}
    with connection.cursor() as cursor:
        cursor.execute("SELECT user_id, count(*) FROM memories_memory GROUP BY user_id")
        if dict(cursor.fetchall()) == expected:
            print(f"{sum(expected.values())} memories loaded already", flush=True)
            return
    rows = memories(copy_size)
    # Whole cached chunks (a chunk's file is named by the digest of all its texts), never embedded here.
    corpus = corpus_embeddings(-(-copy_size // CHUNK) * CHUNK, embed=False)[:copy_size]
    half_lives = {(t, d): half_life_for(t, d) for t, d, *_ in rows}
    header = np.array([corpus.shape[1], 0], dtype=">u2").tobytes()  # pgvector binary: dim, unused, floats
    now = timezone.now()
    segments = []  # (user, first memory id, entities by name) per corpus copy, for the links
    scope, source, active, ready = (str(c.value) for c in (Scope.USER_GLOBAL, Source.IMPORT, Status.ACTIVE,
                                                           EmbeddingStatus.READY))

    def memory_rows():
        next_id = 1
        for number, (user, copies) in enumerate(MILLION_LAYOUT.items()):
            rng = random.Random(99 + number)
            for copy in copies:
                began = time.perf_counter()
                vectors = perturbed(corpus, copy).astype(">f4")
                segments.append((user, next_id, graphs[user]))
                for (memory_type, domain, sensitive, content, _), vector in zip(rows, vectors):
                    when = now - timedelta(days=rng.uniform(0, 120))
                    yield (next_id, user, f"bench-{rng.randrange(2000)}", scope, memory_type, content,
                           domain, sensitive, round(rng.uniform(0.6, 0.98), 2), round(rng.uniform(0.2, 0.9), 2),
                           1, half_lives[memory_type, domain], when, when, now, source, [], False, False,
                           "", active, "", {}, header + vector.tobytes(), ready)
                    next_id += 1
                print(f"  {user} copy {copy}: {len(rows)} rows in {time.perf_counter() - began:.1f}s", flush=True)

    def link_rows():
        for user, first_id, by_name in segments:
            for offset, row in enumerate(rows):
                for name in dict.fromkeys(row[4]):
                    yield user, first_id + offset, by_name[name].pk, "mention"

    began = time.perf_counter()
    with transaction.atomic(), connection.cursor() as wrapper:
        cursor = wrapper.cursor  # psycopg's own, for COPY
        # No foreign-key triggers for the load (the ids are consistent by construction): ~8M RI checks otherwise.
        cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute(f"TRUNCATE {', '.join(LOADED_TABLES)} RESTART IDENTITY CASCADE")
        dropped = [(table, index) for table in ("memories_memory", "memories_memoryentity")
                   for index in _drop_secondary_indexes(cursor, table)]
        graphs = {user: create_graph(user) for user in MILLION_LAYOUT}
        print(f"entity graphs of {len(graphs)} users in {time.perf_counter() - began:.1f}s", flush=True)
        step = time.perf_counter()
        count = _copy(cursor, "memories_memory", MEMORY_COPY_COLUMNS, memory_rows())
        cursor.execute("SELECT setval(pg_get_serial_sequence('memories_memory', 'id'), %s)", [count])
        print(f"COPY memories_memory: {count} rows in {time.perf_counter() - step:.1f}s", flush=True)
        step = time.perf_counter()
        links = _copy(cursor, "memories_memoryentity", LINK_COPY_COLUMNS, link_rows())
        print(f"COPY memories_memoryentity: {links} rows in {time.perf_counter() - step:.1f}s", flush=True)
        print(f"insert total: {time.perf_counter() - began:.1f}s", flush=True)
        rebuild_indexes(cursor, dropped, index_memory)
    vacuum_analyze_loaded()
    print(f"loaded {count} memories in {time.perf_counter() - began:.0f}s", flush=True)


def megabytes(size: int) -> str:
    return f"{size / 2**20:,.0f} MB"


def print_sizes() -> None:
    """Database, memory table and index sizes."""
    from django.db import connection

    with connection.cursor() as cursor:
        # Summed over the partitions (a partitioned table or index has no storage of its own).
        cursor.execute("SELECT pg_database_size(current_database()), sum(pg_total_relation_size(relid)), "
                       "sum(pg_relation_size(relid)), sum(pg_indexes_size(relid)) "
                       "FROM pg_partition_tree('memories_memory')")
        database, total, heap, indexes = cursor.fetchone()
        cursor.execute("SELECT indexname, (SELECT sum(pg_relation_size(relid)) FROM pg_partition_tree("
                       "format('%I.%I', schemaname, indexname)::regclass)) FROM pg_indexes "
                       "WHERE schemaname = current_schema() AND tablename = 'memories_memory' ORDER BY 2 DESC")
        each = cursor.fetchall()
    print(f"database: {megabytes(database)}; memories_memory: {megabytes(total)} in all, table "
          f"{megabytes(heap)} (+ TOAST), indexes {megabytes(indexes)}")
    print("indexes: " + ", ".join(f"{name} {megabytes(size)}" for name, size in each), flush=True)


def server_rss() -> str:
    """Total VmRSS (and its anonymous and shared-memory parts) of this PostgreSQL server's processes: the
    postmaster (the parent of this connection's backend) and its children. Shared buffers count once in
    every process that touched them, so the total overstates the memory used; RssAnon does not."""
    from django.db import connection

    def status(pid) -> dict:
        fields = {}
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            key, _, value = line.partition(":")
            fields[key] = value.split()[0] if value.split() else ""
        return fields

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        postmaster = int(status(cursor.fetchone()[0])["PPid"])
    totals, processes = {"VmRSS": 0, "RssAnon": 0, "RssShmem": 0}, 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = status(entry.name)
            if entry.name != str(postmaster) and fields.get("PPid") != str(postmaster):
                continue
            if b"postgres" not in (entry / "cmdline").read_bytes():
                continue
        except (FileNotFoundError, ProcessLookupError):
            continue
        processes += 1
        for key in totals:
            totals[key] += int(fields.get(key) or 0) * 1024
    return (f"{megabytes(totals['VmRSS'])} VmRSS over {processes} processes (RssAnon {megabytes(totals['RssAnon'])},"
            f" RssShmem {megabytes(totals['RssShmem'])})")


def latency_table(title: str, client, user: str) -> None:
    """Measure the three modes for `user` and print them as a table under `title`."""
    print(title)
    print("| mode | p50 ms | p95 ms | p99 ms | max ms | avg results | rounds 2-5 p50 / p95 ms |")
    print("|---|---|---|---|---|---|---|")
    for mode in ("text-only", "hybrid", "hybrid+2hop"):
        f = measure(client, mode, user)
        print(f"| {mode} | {f['p50']:.1f} | {f['p95']:.1f} | {f['p99']:.1f} | {f['max']:.1f} |"
              f" {f['avg_results']:.1f} | {f['warm_p50']:.1f} / {f['warm_p95']:.1f} |", flush=True)


def run_million(scale: float = 1.0, index_memory: str = "5GB") -> None:
    """2M memories in one table: latency for `bench` (1M at scale 1) and for bench-0 (100k) beside it."""
    from memories.readiness import semantic_status
    from recall_site.startup import warm_up

    label = million_label(scale)
    use_bench_database(label)
    load_million(scale, index_memory)
    print_sizes()
    print(f"PostgreSQL server RSS after load: {server_rss()}", flush=True)
    big, small = USER_ID, "bench-0"
    clients = {user: api_client(user) for user in (big, small)}
    print(f"semantic canary: {semantic_status()}", flush=True)
    warm_up()
    copy_size = round(MAX_SIZE * scale)
    total = copy_size * sum(len(copies) for copies in MILLION_LAYOUT.values())
    sizes = {user: copy_size * len(MILLION_LAYOUT[user]) for user in (big, small)}
    for user in (big, small):
        latency_table(f"## user {user}: {sizes[user]} of {total} memories, {len(QUERIES)} queries x {ROUNDS} rounds",
                      clients[user], user)
    for user in (big, small):
        plans = explain_plans(f"{label}_{user}", user)
        print(f"EXPLAIN ANALYZE ({user}): GIN used by lexical = {plans['gin_used']}, HNSW used by semantic = "
              f"{plans['hnsw_used']} (plans in var/bench/search_explain_{label}_{user}.txt)")
    print(f"PostgreSQL server RSS after search: {server_rss()}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # kilobytes on Linux
    print(f"bench process peak RSS: {megabytes(peak)}", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--prepare", action="store_true", help="only compute the cached embeddings")
    parser.add_argument("--served", action="store_true",
                        help="also measure through a real manage.py serve on the same database, keep-alive and "
                             "new connection per request (bench/served.py)")
    parser.add_argument("--soak", type=float, default=0, metavar="SECONDS",
                        help=f"with --served: then {SOAK_CLIENTS} keep-alive clients searching for SECONDS (e.g. 60): "
                             "5xx, latency, PostgreSQL connections during and after")
    parser.add_argument("--size", type=int, help="corpus size to measure (default: 10000 then 100000; 1000000 "
                                                 "only when given)")
    parser.add_argument("--users-scale", type=float, default=1.0,
                        help="with --size 1000000: build its users at this fraction of their size, in database "
                             "bench_search_1000000_small (e.g. 0.02 for a smoke test)")
    parser.add_argument("--index-memory", default="5GB",
                        help="with --size 1000000: maintenance_work_mem of the index builds (default 5GB: the "
                             "1M-row HNSW graph fits; with 2GB its last ~1M rows are inserted on disk, ~30-55 min "
                             "more)")
    args = parser.parse_args()
    if args.users_scale != 1.0 and (args.size != MILLION or not 0 < args.users_scale < 1):
        parser.error(f"--users-scale takes a fraction between 0 and 1, with --size {MILLION} only")
    if not args.prepare and args.size is None:
        for size in (10_000, MAX_SIZE):
            subprocess.run([sys.executable, __file__, "--size", str(size), "--soak", str(args.soak)]
                           + ["--served"] * args.served, check=True)
        return
    import logging

    import django

    django.setup()
    logging.getLogger("recall.request").setLevel(logging.WARNING)  # one access line per request otherwise
    if args.prepare:
        corpus_embeddings(MAX_SIZE)
    elif args.size == MILLION:
        run_million(args.users_scale, args.index_memory)
    else:
        run_size(args.size, served=args.served, soak_seconds=args.soak)


if __name__ == "__main__":
    main()
