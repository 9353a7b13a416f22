"""Many-tenant benchmark (#29): search latency and retrieval recall per user size class, with thousands of
users of very different sizes in one table.

    python bench/tenants.py                                          # 10,000 users, 2M memories
    python bench/tenants.py --users 300 --total 60000 --sample 5     # small: ~4 min the first time
    python bench/tenants.py --users 300 --total 60000 --sample 5 --reuse   # measure again, no load
    python bench/tenants.py --reuse --forget 0.1    # then forget 10 % of the users, VACUUM, measure again
    python bench/tenants.py --reuse --forget 0.1 --forget-only   # the same without the measuring before

The users' memory counts follow a Zipf-like spread (rank ** -1.2, seeded log-normal jitter, at least 1 and
at most 100k each, scaled to --total): at the defaults ~96 % of the users hold under 500 memories and ~15
hold 20k-100k. Each user's rows are distinct texts of bench/search.py's corpus (its first texts: the
largest user rounded up to whole 10k chunks, with their cached vectors, embedded once if missing as
`bench/search.py --prepare` does). The stream of every user's rows runs through copies 1, 2, ... of that
corpus, each with its vectors perturbed by seeded noise (bench/search.py's `perturbed`; not copy 0, the
corpus as embedded, whose repeated texts would repeat vectors), so no two rows share a vector; within a
copy the rows of the users it holds are shuffled, as the writes of many tenants interleave. Each user gets
the entity graph its memories name (self, the people, orgs and places, one alias each, the corpus's
relations among them) and the memory-entity links. Everything is COPYed with the secondary indexes dropped
and rebuilt afterwards (as bench/search.py's load_million) into its own database,
bench_search_tenants_<users>_<total>_<seed>, kept between runs: --reuse measures it as it is. No sentence
vectors are loaded (as in the 1M case): each memory is one sentence.

Size classes: < 100, 100-1k, 1k-10k, >= 10k memories. For --sample users per class (seeded; all of a
smaller class), each of the first --queries queries of bench/search.py is sent in three modes through the
DRF test client with token auth (bench/search.py's api_client; query embedding included, limit 20):
  hybrid          the query as it is (its own domain gate),
  hybrid+domains  with filters.domains, in turn ["health"], ["professional", "scheduling"], ["relationship"],
  hybrid+types    with types, in turn ["preference"], ["fact"], ["event"];
p50/p95/p99 per class and mode. Then, untimed, for every sampled user, query and mode:
  semantic recall@10 / @30: the semantic candidates of Recall's search statement
      (search.retrieval.candidates.find_candidates: the HNSW scan, iterative on pgvector 0.8, its exact
      fallback, the similarity floor) against an exact scan of the same eligible rows (semantic.py's `nearest` SQL with
      index scans off, so no HNSW, and sequential scans off, so a bitmap scan of the user's rows rather than
      of every tenant's), with the same query vector and gate; a candidate at the k-th exact distance (a
      tie) counts as found; "min R@10" is the worst query;
  lexical recall@10 / @30: Recall's full-text candidates (lexical.lexical_candidates with query_terms'
      weights, which estimate a word's holders from the statistics of the user's partition for a user with over
      25 x 200 eligible memories) against the same function given every word's holders counted exactly
      among the user's eligible rows.
A query with no eligible row (exact scan empty, or no word held) counts for neither recall.
Printed: load time, table and index sizes, the PostgreSQL server's RSS, the classes, the results table.

--forget SHARE then forgets that share of the users (never a sampled one) through the project's hard delete,
forgetting.services.hard_delete, one user at a time: a filter forget of all the user's memories (`before`
tomorrow), then a forget of every entity left but the self (per user ~0.15 s, ~1 s for 7.6k memories, in
the small run: no bulk path needed). The VACUUM each delete would queue is turned off and
forgetting.tasks.vacuum_after_forget runs once after all of them (timed, with its slowest tables); then
sizes, RSS, the results table again and a residue scan: the forgotten users' rows left in every table of
Recall's apps that has a user_id (none expected; each user's own "me" entity and the audit log's hard_delete
events are kept by design, counted apart). The sample and the users forgotten are drawn from the spread as
loaded, not from what the database holds now, so --forget-only (no measuring before) finishes a forget that
was cut short, on the same users. The database keeps what the forget left: load again (no --reuse) for the
whole population.

Time on the 2-core host, small run (300 users, 60k memories, --sample 5): 3 min 40 s the first time (1.5
min of it embedding the 20k corpus texts, then cached), 2 min 5 s with the corpus cached (load 40 s, of
which index builds 36 s; measuring 75 s), 4 min 40 s with --reuse --forget 0.1 (VACUUM of memories_memory
alone 110-130 s: pgvector repairs its four HNSW graphs). The full run was not timed: expect ~8 min to
embed the 100k corpus once, a load like `bench/search.py --size 1000000` (~18 min, 12 GB of disk) plus the
graphs, ~15-30 min of measuring (exact scans of 100k-memory users dominate), and with --forget a VACUUM of
the 2M-row table's HNSW indexes that may take far longer than the load.
"""
import argparse
import math
import random
import resource
import statistics
import time
from collections import defaultdict
from datetime import timedelta

import numpy as np

import bench_path  # noqa: F401 - first: the apps before this directory on sys.path

bench = bench_path.load("search")  # bench/search.py: corpus, cached vectors, COPY, sizes, client, modes
from search_corpus import ORGS, PLACES, memories, people, relations  # noqa: E402

ZIPF = 1.2  # memory count ~ rank ** -ZIPF
JITTER = 0.25  # sigma of the log-normal jitter of each user's count
MAX_USER = bench.MAX_SIZE  # the largest user: the whole cached corpus, distinct texts
CLASSES = (("< 100", 0, 100), ("100-1k", 100, 1_000), ("1k-10k", 1_000, 10_000), (">= 10k", 10_000, math.inf))
MODES = ("hybrid", "hybrid+domains", "hybrid+types")
DOMAIN_FILTERS = (["health"], ["professional", "scheduling"], ["relationship"])
TYPE_FILTERS = (["preference"], ["fact"], ["event"])
RECALL_AT = (10, 30)
SEARCH_LIMIT = 20  # as bench/search.py's bodies
TIE = 1e-6  # cosine distances this close to the k-th exact one are ties
RESIDUE_APPS = ("memories_", "entities_", "audit_")  # the apps whose tables hold a user_id (the memory user)

ENTITY_COPY_COLUMNS = [
    ("id", "int8"), ("public_id", "text"), ("user_id", "text"), ("kind", "text"), ("canonical_name", "text"),
    ("normalized_name", "text"), ("created_at", "timestamptz"), ("drift_flagged", "bool"),
    ("relations_at_creation", "jsonb"),
]
ALIAS_COPY_COLUMNS = [("user_id", "text"), ("entity_id", "int8"), ("alias", "text"), ("normalized", "text"),
                      ("origin", "text"), ("created_at", "timestamptz")]
RELATION_COPY_COLUMNS = [("user_id", "text"), ("subject_id", "int8"), ("predicate", "text"), ("object_id", "int8"),
                         ("confidence", "float8"), ("status", "text"), ("session_id", "text"),
                         ("source_message_ids", "varchar[]"), ("created_at", "timestamptz")]


def user_sizes(users: int, total: int, seed: int) -> np.ndarray:
    """Memory counts of `users` users (rank order, jittered) summing to `total`: rank ** -ZIPF times a seeded
    log-normal factor, scaled (bisection) and clipped to 1 .. MAX_USER, the rounding remainder spread over
    the largest users that have room."""
    if not users <= total <= users * MAX_USER:
        raise SystemExit(f"--total must lie between --users ({users}) and {MAX_USER} x --users")
    rng = np.random.default_rng(seed)
    shape = np.arange(1, users + 1, dtype=float) ** -ZIPF * np.exp(rng.normal(0, JITTER, users))
    scaled = lambda scale: np.clip(np.rint(scale * shape), 1, MAX_USER).astype(np.int64)  # noqa: E731
    low, high = 0.0, total / shape.min()
    for _ in range(100):
        middle = (low + high) / 2
        low, high = (middle, high) if scaled(middle).sum() < total else (low, middle)
    counts = scaled(high)
    remainder, order, n = int(total - counts.sum()), np.argsort(-counts), 0
    while remainder:
        step, user = (1 if remainder > 0 else -1), order[n % users]
        if 1 <= counts[user] + step <= MAX_USER:
            counts[user] += step
            remainder -= step
        n += 1
    return counts


def user_name(rank: int) -> str:
    return f"tenant-{rank:05d}"


def size_class(count: int) -> str:
    return next(label for label, low, high in CLASSES if low <= count < high)


def database_label(args) -> str:
    return f"tenants_{args.users}_{args.total}_{args.seed}"


def load_tenants(counts: np.ndarray, seed: int, index_memory: str) -> None:
    """Every user's memories, entity graph and links, COPYed in one transaction with the secondary indexes of
    the loaded tables dropped and rebuilt from their saved definitions, then VACUUM ANALYZE (see the module
    docstring for the layout)."""
    from django.db import connection, transaction
    from django.utils import timezone

    from entities.models import AliasOrigin, EntityKind, RelationStatus
    from entities.names import normalize_name
    from memories.decay import half_life_for
    from memories.models import EmbeddingStatus, Scope, Source, Status

    began = time.perf_counter()
    users, total = len(counts), int(counts.sum())
    corpus_size = min(MAX_USER, -(-int(counts.max()) // bench.CHUNK) * bench.CHUNK)
    rows = memories(corpus_size)
    corpus = bench.corpus_embeddings(corpus_size)  # embedded (and cached) only if missing
    print(f"corpus: {corpus_size} texts and vectors in {time.perf_counter() - began:.1f}s; "
          f"{-(-total // corpus_size)} copies", flush=True)
    rng = np.random.default_rng(seed)
    texts = rng.permutation(corpus_size)  # stream position p holds corpus text texts[p % corpus_size]
    stream_order = rng.permutation(users)  # users' windows in the stream, in this order
    owner = np.repeat(stream_order, counts[stream_order]).astype(np.int32)  # the user of each stream position
    starts = np.zeros(users, dtype=np.int64)
    starts[stream_order] = np.concatenate([[0], np.cumsum(counts[stream_order])[:-1]])

    # Entities: the names each user's texts mention, then ids per (user, name).
    names = people() + ORGS + PLACES
    kinds = [EntityKind.PERSON] * len(people()) + [EntityKind.ORG] * len(ORGS) + [EntityKind.PLACE] * len(PLACES)
    name_index = {name: n for n, name in enumerate(names)}
    mentions = np.zeros((corpus_size, len(names)), dtype=bool)
    for i, row in enumerate(rows):
        mentions[i, [name_index[name] for name in row[4]]] = True
    edges = relations(people())
    edge_subjects = np.array([name_index[s] for s, _, _ in edges])
    edge_objects = np.array([name_index[o] for _, _, o in edges])
    mentioned = np.zeros((users, len(names)), dtype=bool)
    for user in range(users):
        mentioned[user] = mentions[texts[(starts[user] + np.arange(counts[user])) % corpus_size]].any(axis=0)
    self_ids = 1 + np.arange(users) + np.concatenate([[0], np.cumsum(mentioned.sum(axis=1))[:-1]])
    entity_ids = np.where(mentioned, self_ids[:, None] + np.cumsum(mentioned, axis=1), 0)
    normalized = [normalize_name(name) for name in names]
    now = timezone.now()
    half_lives = {(t, d): half_life_for(t, d) for t, d, *_ in rows}
    header = np.array([corpus.shape[1], 0], dtype=">u2").tobytes()  # pgvector binary: dim, unused, floats
    scope, source, active, ready = (str(c.value) for c in (Scope.USER_GLOBAL, Source.IMPORT, Status.ACTIVE,
                                                           EmbeddingStatus.READY))
    memory_user = np.zeros(total, dtype=np.int32)  # by memory id - 1, for the links
    memory_text = np.zeros(total, dtype=np.int32)

    def entity_rows():
        for user in range(users):
            name = user_name(user)
            yield (int(self_ids[user]), f"ent_{int(self_ids[user]):012x}", name, str(EntityKind.SELF.value), "me",
                   "me", now, False, [])
            for n in np.flatnonzero(mentioned[user]):
                pk = int(entity_ids[user, n])
                yield pk, f"ent_{pk:012x}", name, str(kinds[n].value), names[n], normalized[n], now, False, []

    def alias_rows():
        for user in range(users):
            for n in np.flatnonzero(mentioned[user]):
                yield (user_name(user), int(entity_ids[user, n]), names[n], normalized[n],
                       str(AliasOrigin.USER_MENTION.value), now)

    def relation_rows():
        for user in range(users):
            for e in np.flatnonzero(mentioned[user, edge_subjects] & mentioned[user, edge_objects]):
                yield (user_name(user), int(entity_ids[user, edge_subjects[e]]), edges[e][1],
                       int(entity_ids[user, edge_objects[e]]), 0.9, str(RelationStatus.ACTIVE.value), "", [], now)

    def memory_rows():
        next_id = 1
        for copy in range(-(-total // corpus_size)):
            step = time.perf_counter()
            # Copy 1 + copy: every vector perturbed. Copy 0 (the corpus as embedded) repeats a vector wherever
            # the corpus repeats a text ("Dentist appointment moved to Monday afternoon"), across tenants.
            vectors = bench.perturbed(corpus, 1 + copy).astype(">f4")
            positions = np.arange(copy * corpus_size, min(total, (copy + 1) * corpus_size))
            rng_copy = random.Random(seed * 1000 + copy)
            for position in np.random.default_rng(seed * 1000 + copy).permutation(positions):  # tenants interleave
                user, text = int(owner[position]), int(texts[position % corpus_size])
                memory_type, domain, sensitive, content, _ = rows[text]
                when = now - timedelta(days=rng_copy.uniform(0, 120))
                memory_user[next_id - 1], memory_text[next_id - 1] = user, text
                yield (next_id, user_name(user), f"bench-{rng_copy.randrange(2000)}", scope, memory_type, content,
                       domain, sensitive, round(rng_copy.uniform(0.6, 0.98), 2), round(rng_copy.uniform(0.2, 0.9), 2),
                       1, half_lives[memory_type, domain], when, when, now, source, [], False, False, "", active, "",
                       {}, header + vectors[text].tobytes(), ready)
                next_id += 1
            print(f"  copy {copy}: {len(positions)} rows in {time.perf_counter() - step:.1f}s", flush=True)

    def link_rows():
        for index in range(total):
            user, text = memory_user[index], memory_text[index]
            for name in dict.fromkeys(rows[text][4]):
                yield user_name(user), index + 1, int(entity_ids[user, name_index[name]]), "mention"

    tables = [("entities_entity", ENTITY_COPY_COLUMNS, entity_rows), ("entities_alias", ALIAS_COPY_COLUMNS, alias_rows),
              ("entities_relation", RELATION_COPY_COLUMNS, relation_rows),
              ("memories_memory", bench.MEMORY_COPY_COLUMNS, memory_rows),
              ("memories_memoryentity", bench.LINK_COPY_COLUMNS, link_rows)]
    with transaction.atomic(), connection.cursor() as wrapper:
        cursor = wrapper.cursor  # psycopg's own, for COPY
        cursor.execute("SET LOCAL session_replication_role = replica")  # ids consistent by construction
        cursor.execute(f"TRUNCATE {', '.join(bench.LOADED_TABLES)} RESTART IDENTITY CASCADE")
        dropped = [(table, index) for table in bench.LOADED_TABLES
                   for index in bench._drop_secondary_indexes(cursor, table)]
        for table, columns, generate in tables:
            step = time.perf_counter()
            count = bench._copy(cursor, table, columns, generate())
            cursor.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                           f"(SELECT coalesce(max(id), 0) + 1 FROM {table}), false)")
            print(f"COPY {table}: {count} rows in {time.perf_counter() - step:.1f}s", flush=True)
        bench.rebuild_indexes(cursor, dropped, index_memory)
    bench.vacuum_analyze_loaded()
    print(f"load time: {total} memories of {users} users in {time.perf_counter() - began:.0f}s", flush=True)


def stored_counts() -> dict[str, int]:
    """Memories per user as the database holds them now."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT user_id, count(*) FROM memories_memory GROUP BY user_id")
        return dict(cursor.fetchall())


def planned_counts(args) -> dict[str, int]:
    """Memories per user as loaded (the spread): the sample and the users to forget come from it, so a run on
    a database that a forget has since thinned picks the same users as the run before it."""
    return {user_name(user): int(count) for user, count in enumerate(user_sizes(args.users, args.total, args.seed))}


def class_members(counts: dict[str, int]) -> dict[str, list[str]]:
    """{class: users, smallest first}."""
    members = defaultdict(list)
    for user, count in sorted(counts.items(), key=lambda item: (item[1], item[0])):
        members[size_class(count)].append(user)
    return members


def class_table(counts: dict[str, int]) -> dict[str, list[str]]:
    """Print users and memories per size class; {class: users, smallest first}."""
    members = class_members(counts)
    print(f"## {len(counts)} users, {sum(counts.values())} memories")
    print("| class | users | memories | smallest | median | largest |")
    print("|---|---|---|---|---|---|")
    for label, *_ in CLASSES:
        sizes = [counts[user] for user in members[label]]
        if sizes:
            print(f"| {label} | {len(sizes)} | {sum(sizes)} | {sizes[0]} | {statistics.median(sizes):.0f} |"
                  f" {sizes[-1]} |")
        else:
            print(f"| {label} | 0 | 0 | - | - | - |")
    return members


def filters_of(mode: str, n: int) -> tuple[list[str] | None, list[str] | None]:
    """(domains, types) of query `n` in `mode`."""
    if mode == "hybrid+domains":
        return DOMAIN_FILTERS[n % len(DOMAIN_FILTERS)], None
    if mode == "hybrid+types":
        return None, TYPE_FILTERS[n % len(TYPE_FILTERS)]
    return None, None


def mode_bodies(mode: str, user: str, queries: int) -> list[dict]:
    bodies = bench.search_bodies("hybrid", user)[:queries]
    for n, body in enumerate(bodies):
        body["limit"] = SEARCH_LIMIT
        domains, types = filters_of(mode, n)
        if domains:
            body["filters"] = {"domains": domains}
        if types:
            body["types"] = types
    return bodies


def exact_nearest(eligible, vector: str, limit: int) -> list[tuple[int, float]]:
    """(id, cosine distance) of the `limit` nearest eligible memories, exactly: semantic.py's `nearest` SQL with
    index scans off (no HNSW) and sequential scans off (a bitmap scan of the user's rows, not of every
    tenant's), the similarity floor applied as Recall's candidates have it."""
    from django.db import connection, transaction

    from recall_site.config import recall_setting
    from search.retrieval.semantic import nearest

    floor = recall_setting("memory_retrieval.semantic_min_similarity")
    sql, params = nearest(eligible, vector, limit)
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_indexscan = off")
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute(sql, params)
        return [(pk, distance) for pk, distance in cursor.fetchall() if 1.0 - distance >= floor]


def semantic_recall(eligible, user: str, vector: str) -> dict[int, float] | None:
    """{k: recall@k} of Recall's semantic candidates against the exact scan; None when nothing is eligible."""
    from django.utils import timezone

    from recall_site.config import recall_setting
    from search.retrieval.candidates import find_candidates

    per_retriever = recall_setting("memory_retrieval.candidate_limit")
    exact = exact_nearest(eligible, vector, max(RECALL_AT))
    if not exact:
        return None
    found = find_candidates(eligible, vector=vector, lexical=[], reached=[], paths={},
                            limit=per_retriever, enough=SEARCH_LIMIT, now=timezone.now(), lexeme_weights={},
                            people=[])
    distance = {row.pk: 1.0 - row.similarity for row in found.rows if row.similarity is not None}
    recall = {}
    for k in RECALL_AT:
        wanted = exact[:k]
        bound = wanted[-1][1] + TIE
        hits = sum(1 for pk in found.ids["semantic"][:k] if distance[pk] <= bound)
        recall[k] = min(1.0, hits / len(wanted))
    return recall


def exact_terms(eligible, lexemes: list[str]):
    """lexical.QueryTerms with every lexeme's holders counted among the eligible memories (no cap, no
    estimate), weighed as query_terms weighs them."""
    from django.db import connection

    from memories.user_words import holds, user_token
    from recall_site.config import recall_setting
    from search.retrieval.lexical import USER_TOKEN, QueryTerms, quoted

    if not lexemes:
        return QueryTerms({})
    cap = recall_setting("memory_retrieval.lexical_max_matches")
    inner, params = eligible.query("count(*)", where=holds("to_tsquery('simple', term.query)", USER_TOKEN),
                                   eligible_user_token=user_token(eligible.user_id))
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT term.lexeme, ({inner}) "
                       "FROM unnest(%(lexemes)s::text[], %(queries)s::text[]) AS term(lexeme, query)",
                       {**params, "lexemes": lexemes, "queries": [quoted(x) for x in lexemes]})
        frequencies = {lexeme: df for lexeme, df in cursor.fetchall() if df}
    return QueryTerms({lexeme: math.log(1 + (cap + 1) / df) for lexeme, df in frequencies.items()},
                      frozenset(lexeme for lexeme, df in frequencies.items() if df > cap), frequencies)


def lexical_recall(eligible, lexemes: list[str]) -> dict[int, float] | None:
    """{k: recall@k} of Recall's full-text candidates against those ranked with exact word counts; None when
    the exact ones find nothing."""
    from recall_site.config import recall_setting
    from search.retrieval.lexical import lexical_candidates, query_terms

    per_retriever = recall_setting("memory_retrieval.candidate_limit")
    wanted = lexical_candidates(eligible, exact_terms(eligible, lexemes), per_retriever, with_vectors=True)
    if not wanted:
        return None
    found = lexical_candidates(eligible, query_terms(eligible, lexemes), per_retriever, with_vectors=True)
    return {k: len(set(found[:k]) & set(wanted[:k])) / len(wanted[:k]) for k in RECALL_AT}


class Queries:
    """The bench's queries with their vectors (as pgvector text, embedded once) and lexemes."""

    def __init__(self, count: int):
        from memories.embedding import embed_search_query
        from search.retrieval.lexical import query_lexemes
        from search.retrieval.semantic import vector_literal

        self.texts = bench.QUERIES[:count]
        self.vectors = [embed_search_query(text) for text in self.texts]
        self.literals = [vector_literal(vector) for vector in self.vectors]
        self.lexemes = [query_lexemes(text) for text in self.texts]


def measure(sample: dict[str, list[str]], queries: Queries) -> dict:
    """Per (class, mode): search latencies, semantic and lexical recall of the sampled users."""
    from search.retrieval.eligible import eligible_clause
    from search.retrieval.gating import query_gate

    figures = defaultdict(lambda: {"ms": [], "hits": [], "semantic": defaultdict(list), "lexical": defaultdict(list)})
    for label, users in sample.items():
        step = time.perf_counter()
        for user in users:
            client = bench.api_client(user)
            bodies = {mode: mode_bodies(mode, user, len(queries.texts)) for mode in MODES}
            for n in range(len(queries.texts)):  # the modes in turn, so all meet the same machine load
                for mode in MODES:
                    began = time.perf_counter()
                    response = client.post("/api/v1/search", bodies[mode][n], format="json")
                    figures[label, mode]["ms"].append((time.perf_counter() - began) * 1000)
                    assert response.status_code == 200, response.content
                    figures[label, mode]["hits"].append(len(response.json()["results"]))
        timed = time.perf_counter() - step
        for user in users:  # untimed: every timed search of the class ran first
            for n, text in enumerate(queries.texts):
                for mode in MODES:
                    domains, types = filters_of(mode, n)
                    gate = query_gate(text, query_vector=queries.vectors[n], domains=domains)
                    eligible = eligible_clause(user_id=user, session_id=None, gate=gate, types=types)
                    cell = figures[label, mode]
                    for kind, recall in (("semantic", semantic_recall(eligible, user, queries.literals[n])),
                                         ("lexical", lexical_recall(eligible, queries.lexemes[n]))):
                        for k, value in (recall or {}).items():
                            cell[kind][k].append(value)
        print(f"  {label}: {len(users)} users searched in {timed:.0f}s, recall in "
              f"{time.perf_counter() - step - timed:.0f}s", flush=True)
    return figures


def results_table(title: str, sample: dict[str, list[str]], figures: dict) -> None:
    mean = lambda values: f"{statistics.fmean(values):.3f}" if values else "-"  # noqa: E731
    print(title)
    print("| class | mode | users | searches | p50 ms | p95 ms | p99 ms | avg hits | semantic R@10 | R@30 |"
          " min R@10 | lexical R@10 | R@30 | recall queries sem / lex |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for label, users in sample.items():
        for mode in MODES:
            cell = figures[label, mode]
            f = bench.latency_figures(cell["ms"])
            semantic, lexical = cell["semantic"], cell["lexical"]
            low = f"{min(semantic[10]):.2f}" if semantic[10] else "-"
            print(f"| {label} | {mode} | {len(users)} | {len(cell['ms'])} | {f['p50']:.1f} | {f['p95']:.1f} |"
                  f" {f['p99']:.1f} | {statistics.fmean(cell['hits']):.1f} | {mean(semantic[10])} |"
                  f" {mean(semantic[30])} | {low} | {mean(lexical[10])} | {mean(lexical[30])} |"
                  f" {len(semantic[10])} / {len(lexical[10])} |", flush=True)


def graph_sizes() -> None:
    from django.db import connection

    tables = ("memories_memoryentity", "entities_entity", "entities_alias", "entities_relation")
    with connection.cursor() as cursor:
        cursor.execute("SELECT relname, pg_total_relation_size(oid), pg_indexes_size(oid), reltuples::bigint "
                       "FROM pg_class WHERE relname = ANY(%s) ORDER BY relname", [list(tables)])
        rows = cursor.fetchall()
    print("graph tables: " + ", ".join(f"{name} {bench.megabytes(total)} (indexes {bench.megabytes(indexes)}, "
                                       f"~{tuples} rows)" for name, total, indexes, tuples in rows), flush=True)


def forget_users(counts: dict[str, int], share: float, keep: set[str], seed: int) -> list[str]:
    """Forget `share` of the users of the spread `counts` (none of `keep`) through
    forgetting.services.hard_delete, one user at a time: every memory (a filter forget, `before` tomorrow), then
    every entity left but the user's self; then forgetting.tasks.vacuum_after_forget once (the background
    VACUUM a forget queues, turned off per delete). The users chosen; a user already forgotten by an
    interrupted run has nothing left to delete."""
    from django.conf import settings
    from django.db import connection
    from django.utils import timezone

    from entities.models import Entity, EntityKind
    from forgetting.criteria import DeleteCriteria
    from forgetting.services import hard_delete
    from forgetting.tasks import vacuum_after_forget
    from recall_site.config import with_overrides
    from search.retrieval.statistics import forget_statistics

    candidates = sorted(set(counts) - keep)
    chosen = random.Random(seed).sample(candidates, min(len(candidates), round(share * len(counts))))
    settings.RECALL = with_overrides(settings.RECALL, {"audit": {"vacuum_after_forget": False}})
    tomorrow = timezone.now() + timedelta(days=1)
    began, seconds, removed = time.perf_counter(), [], defaultdict(int)
    for user in chosen:
        step = time.perf_counter()
        result = hard_delete(user_id=user, criteria=DeleteCriteria(before=tomorrow), actor="bench",
                             audit_reason="benchmark")
        refs = list(Entity.objects.live().filter(user_id=user).exclude(kind=EntityKind.SELF)
                    .values_list("public_id", flat=True))
        for key, value in result["counts"].items():
            removed[key] += value
        if refs:
            for key, value in hard_delete(user_id=user, criteria=DeleteCriteria(entity_refs=refs), actor="bench",
                                          audit_reason="benchmark")["counts"].items():
                removed[key] += value
        seconds.append(time.perf_counter() - step)
    wall = time.perf_counter() - began
    f = bench.latency_figures([s * 1000 for s in seconds]) if seconds else None
    forgotten, largest = sum(counts[user] for user in chosen), max(map(counts.get, chosen), default=0)
    print(f"## forget: {len(chosen)} users ({forgotten} memories, the largest {largest}) "
          f"by hard_delete in {wall:.1f}s" + (f"; per user p50 {f['p50']:.0f} ms, p95 {f['p95']:.0f} ms, max "
                                              f"{f['max']:.0f} ms" if f else ""))
    print("removed: " + ", ".join(f"{key} {value}" for key, value in sorted(removed.items()) if value), flush=True)
    statements = []

    def timed(execute, sql, params, many, context):
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            statements.append((sql.split('"')[1] if '"' in sql else sql, time.perf_counter() - started))

    step = time.perf_counter()
    with connection.execute_wrapper(timed):
        tables = vacuum_after_forget()
    forget_statistics()
    slowest = ", ".join(f"{table} {seconds:.1f}s" for table, seconds in sorted(statements, key=lambda x: -x[1])[:3])
    print(f"vacuum_after_forget: VACUUM (ANALYZE) of {len(tables)} tables in {time.perf_counter() - step:.1f}s "
          f"(slowest: {slowest})", flush=True)
    return chosen


def residue_scan(users: list[str]) -> None:
    """Rows of `users` left in any table of Recall's apps that has a user_id column (partitions read through
    their parent; django-q2's queue has no user_id column: the memory purger deletes the tasks naming a forgotten
    memory). Kept by design and counted apart: each user's own entity ("me": hard_delete
    never forgets it, and it holds no content) and the audit log's hard_delete events (ids and counts, never
    content). The bench's texts come from a corpus every user shares, so this counts rows by owner, not
    words."""
    from django.db import connection

    from entities.models import EntityKind

    began = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT table_name FROM information_schema.columns WHERE table_schema = current_schema() "
            "AND column_name = %s AND NOT EXISTS (SELECT 1 FROM pg_inherits WHERE inhrelid = "
            "format('%%I.%%I', table_schema, table_name)::regclass) ORDER BY table_name", ["user_id"])
        tables = [table for (table,) in cursor.fetchall() if table.startswith(RESIDUE_APPS)]
        left, kept = {}, {}
        for table in tables:
            cursor.execute(f'SELECT count(*) FROM "{table}" WHERE user_id = ANY(%s)', [users])
            left[table] = cursor.fetchone()[0]
        cursor.execute("SELECT count(*) FROM entities_entity WHERE user_id = ANY(%s) AND kind = %s",
                       [users, EntityKind.SELF.value])
        kept["own entities"] = cursor.fetchone()[0]
    left["entities_entity"] -= kept["own entities"]
    for table in [table for table in left if table.startswith("audit_")]:
        kept[table] = left.pop(table)
    rows = ", ".join(f"{table} {n}" for table, n in left.items() if n) or "no rows left"
    print(f"residue scan of {len(users)} forgotten users over {len(tables)} tables in "
          f"{time.perf_counter() - began:.1f}s: {rows}; kept by design: "
          + ", ".join(f"{name} {n}" for name, n in kept.items() if n), flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--users", type=int, default=10_000)
    parser.add_argument("--total", type=int, default=2_000_000, help="memories in all")
    parser.add_argument("--seed", type=int, default=1, help="the spread, the layout and the samples")
    parser.add_argument("--sample", type=int, default=20, help="users measured per size class")
    parser.add_argument("--queries", type=int, default=len(bench.QUERIES),
                        help=f"queries per user and mode (at most {len(bench.QUERIES)})")
    parser.add_argument("--reuse", action="store_true", help="measure the database as it is when it holds memories")
    parser.add_argument("--forget", type=float, default=0, metavar="SHARE",
                        help="then forget this share of the users (e.g. 0.1), VACUUM and measure again")
    parser.add_argument("--forget-only", action="store_true",
                        help="with --reuse --forget: no measuring before (a forget cut short: the rest of it, the "
                             "VACUUM, the measuring after and the residue scan)")
    parser.add_argument("--index-memory", default="5GB", help="maintenance_work_mem of the index builds")
    args = parser.parse_args()
    if not 0 <= args.forget < 1:
        parser.error("--forget takes a share between 0 and 1")
    if args.forget_only and not (args.reuse and args.forget):
        parser.error("--forget-only goes with --reuse and --forget")
    if args.sample < 1 or not 1 <= args.queries <= len(bench.QUERIES):
        parser.error(f"--sample takes at least 1, --queries 1 to {len(bench.QUERIES)}")
    import logging

    import django

    django.setup()
    logging.getLogger("recall.request").setLevel(logging.WARNING)  # one access line per request otherwise
    from memories.readiness import semantic_status
    from recall_site.config import recall_setting
    from recall_site.startup import warm_up

    began = time.perf_counter()
    bench.use_bench_database(database_label(args))
    counts = stored_counts()
    if args.reuse and counts:
        print(f"reusing bench_search_{database_label(args)} as it is (no load)", flush=True)
    else:
        load_tenants(user_sizes(args.users, args.total, args.seed), args.seed, args.index_memory)
        counts = stored_counts()
    bench.print_sizes()
    graph_sizes()
    print(f"PostgreSQL server RSS: {bench.server_rss()}", flush=True)
    class_table(counts)
    planned = planned_counts(args)
    members = class_members(planned)
    rng = random.Random(args.seed)
    sample = {label: sorted(rng.sample(members[label], min(args.sample, len(members[label]))))
              for label, *_ in CLASSES if members[label]}
    bench.use_semantic(True)
    print(f"semantic canary: {semantic_status()}", flush=True)
    warm_up()
    queries = Queries(args.queries)
    first = next(iter(sample.values()))[0]
    warm = bench.api_client(first)
    for body in mode_bodies("hybrid", first, 5):  # untimed: caches, connections
        warm.post("/api/v1/search", body, format="json")
    semantic = recall_setting("memory_semantic")
    settings_line = (f"hnsw.ef_search {semantic['hnsw_ef_search']}, candidate_limit "
                     f"{recall_setting('memory_retrieval.candidate_limit')}, exact_scan_max_rows "
                     f"{semantic['exact_scan_max_rows']}, semantic_min_similarity "
                     f"{recall_setting('memory_retrieval.semantic_min_similarity')}")
    title = (f"## search by size class: {sum(map(len, sample.values()))} users x {len(queries.texts)} queries x "
             f"{len(MODES)} modes, in-process POST /api/v1/search, limit {SEARCH_LIMIT} ({settings_line})")
    if not args.forget_only:
        print("measuring", flush=True)
        results_table(title, sample, measure(sample, queries))
    if args.forget:
        forgotten = forget_users(planned, args.forget, {user for users in sample.values() for user in users},
                                 args.seed)
        bench.print_sizes()
        graph_sizes()
        print(f"PostgreSQL server RSS: {bench.server_rss()}", flush=True)
        class_table(stored_counts())
        print("measuring again", flush=True)
        results_table(f"{title}, after the forget and VACUUM", sample, measure(sample, queries))
        residue_scan(forgotten)
    print(f"PostgreSQL server RSS after search: {bench.server_rss()}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # kilobytes on Linux
    print(f"bench process peak RSS: {bench.megabytes(peak)}; total {time.perf_counter() - began:.0f}s", flush=True)


if __name__ == "__main__":
    main()
