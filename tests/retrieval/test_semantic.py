"""The semantic retriever when pgvector's post-filtered HNSW scan comes back short."""
import itertools
import re
from contextlib import contextmanager

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from psycopg import sql

from memories.embedding import embed_query
from memories.partitions import partition_of
from memories.tasks import embed_pending_memories
from search.retrieval import search_memories
from search.retrieval.eligible import eligible_clause
from search.retrieval.gating import query_gate
from search.retrieval.semantic import (
    COUNTED_UP_TO,
    hnsw_breadth,
    nearest,
    nearest_rows,
    use_session_settings,
    usual_breadth,
    widened_candidates,
)
from search.retrieval.statistics import forget_statistics
from tests import factories


def user_in_the_partition_of(user_id: str) -> str:
    return factories.users_in_the_partition_of(user_id, 1)[0]


def espresso_notes(user_id: str, **fields) -> None:
    """150 memories nearer "espresso coffee tasting" than any other fixture's: they fill an HNSW scan."""
    for n in range(150):
        factories.memory(user_id, f"Espresso tasting notes, roast batch {n}: chocolate and cherry", **fields)


@contextmanager
def index_scans_forced(*, iterative: bool = True):
    """Make the planner take an HNSW index, as on a big table; `iterative=False` scans as pgvector < 0.8 does
    (post-filtered, no iterative scan)."""
    with connection.cursor() as cursor:
        cursor.execute("SET enable_seqscan = off; SET enable_bitmapscan = off; SET enable_sort = off")
        if not iterative:
            cursor.execute("SET hnsw.iterative_scan = off")
    connection.recall_iterative_scan = iterative
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("RESET enable_seqscan; RESET enable_bitmapscan; RESET enable_sort;"
                           " SET hnsw.iterative_scan = relaxed_order")
        connection.recall_iterative_scan = True


@pytest.fixture
def alice_among_bobs_espresso(db):
    """150 of bob's memories nearer the query than any of alice's three: they fill an HNSW scan's candidates.
    This bob's memories share alice's partition (memories/partitions.py); another partition's never crowd it."""
    espresso_notes(user_in_the_partition_of("alice"))
    mine = [factories.memory("alice", text).pk for text in
            ("Likes a flat white in the morning", "Drinks green tea after lunch", "Avoids coffee after 4pm")]
    embed_pending_memories()
    alice = eligible_clause(user_id="alice", session_id=None, gate=query_gate("espresso coffee tasting"))
    return alice, embed_query("espresso coffee tasting"), mine


def test_an_iterative_scan_finds_a_small_users_nearest_memories_in_a_big_table(alice_among_bobs_espresso):
    alice, vector, mine = alice_among_bobs_espresso
    with index_scans_forced():
        found = [pk for pk, _ in nearest_rows(nearest(alice, vector, 50), "hnsw.ef_search = 50")]
    assert sorted(found) == sorted(mine)


def test_without_iterative_scans_the_widened_or_exact_scan_finds_them(alice_among_bobs_espresso):
    """pgvector < 0.8 (an external server): the usual scan comes back short, the fallbacks do not."""
    alice, vector, mine = alice_among_bobs_espresso
    with index_scans_forced(iterative=False):
        short = nearest_rows(nearest(alice, vector, 50), "hnsw.ef_search = 50")
        assert len(short) < 3
        found = [pk for pk, _ in widened_candidates(alice, vector, 50, enough=20, found=len(short))]
    assert set(found) <= set(mine) and mine[2] in found


def test_another_partitions_users_never_crowd_a_small_users_scan(transactional_db):
    """The same 150 nearer memories in a user of another partition: alice's own partition's HNSW graph holds
    only her rows, so even the plain post-filtered scan of pgvector < 0.8 finds all three. (Vacuumed first:
    other tests' rolled-back rows leave dead entries in the graph, which such a scan would return.)"""
    with connection.cursor() as cursor:
        own = partition_of(cursor, "alice")
        other = next(f"bob{n}" for n in itertools.count() if partition_of(cursor, f"bob{n}") != own)
        cursor.execute(f"VACUUM memories_memory_p{own:02d}")
    espresso_notes(other)
    mine = [factories.memory("alice", text).pk for text in
            ("Likes a flat white in the morning", "Drinks green tea after lunch", "Avoids coffee after 4pm")]
    embed_pending_memories()
    alice = eligible_clause(user_id="alice", session_id=None, gate=query_gate("espresso coffee tasting"))
    with index_scans_forced(iterative=False):
        found = [pk for pk, _ in nearest_rows(nearest(alice, embed_query("espresso coffee tasting"), 50),
                                              "hnsw.ef_search = 50")]
    assert sorted(found) == sorted(mine)


@pytest.fixture
def preferences_among_espresso_events(db):
    """alice's two coffee preferences among her 150 espresso events: (their ids, the query vector of
    "espresso coffee tasting", her eligible preferences)."""
    espresso_notes("alice", type="event")
    liked = [factories.memory("alice", text, type="preference").pk for text in
             ("Likes a flat white in the morning", "Prefers oat milk in coffee")]
    embed_pending_memories()
    preferences = eligible_clause(user_id="alice", session_id=None, gate=query_gate("espresso coffee tasting"),
                                  types=["preference"])
    return liked, embed_query("espresso coffee tasting"), preferences


def test_a_big_users_selective_filter_gets_an_exact_scan_of_the_rows_it_keeps(preferences_among_espresso_events,
                                                                              recall_config):
    """More memories than exact_scan_max_rows, but a types filter keeps few: those few are scanned exactly."""
    recall_config({"memory_semantic": {"exact_scan_max_rows": 100}})
    liked, vector, preferences = preferences_among_espresso_events
    with index_scans_forced(iterative=False):
        short = nearest_rows(nearest(preferences, vector, 50), "hnsw.ef_search = 50")
        found = widened_candidates(preferences, vector, 50, enough=20, found=len(short))
    assert len(short) < 2
    assert sorted(pk for pk, _ in found) == sorted(liked)


def copies_of(memory, count: int) -> None:
    """`count` copies of `memory` (same user, type and fields) with random vectors, written in one statement:
    a user with thousands of eligible memories without embedding each. The table's HNSW indexes are dropped
    for the test's transaction first: thousands of graph inserts took half a minute, and what the tests using
    this check (which scan a short list gets, what an exact scan finds) reads none of them."""
    table = memory._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexname FROM pg_indexes WHERE tablename = %s AND indexdef LIKE '%%USING hnsw%%'",
                       [table])
        for (index,) in cursor.fetchall():
            cursor.execute(sql.SQL("DROP INDEX {}").format(sql.Identifier(index)))
        cursor.execute("SELECT column_name FROM information_schema.columns WHERE table_name = %s"
                       " AND column_name NOT IN ('id', 'embedding') AND is_generated = 'NEVER'", [table])
        columns = [row[0] for row in cursor.fetchall()]
        names = sql.SQL(", ").join(map(sql.Identifier, columns))
        cursor.execute(sql.SQL(
            "INSERT INTO {table} ({names}, embedding) SELECT {names}, random.vector FROM {table},"
            " generate_series(1, %s) AS copy, LATERAL (SELECT array_agg(random() - 0.5)::vector AS vector"
            " FROM generate_series(1, 384) WHERE copy > 0) AS random WHERE id = %s"  # copy > 0: one vector per copy
        ).format(table=sql.Identifier(table), names=names), [count, memory.pk])


def test_a_short_list_of_thousands_of_eligible_memories_gets_the_exact_scan_by_default(db):
    """With the default bounds, a filter keeping 5,101 of a user's memories that the HNSW scan returned short
    is scanned exactly (at 2M memories: 11-49 ms for 6k-42k eligible rows, where the widened iterative scan
    took up to 306 ms and missed some), not by the widened iterative scan."""
    preference = factories.memory("alice", "Prefers window seats on trains", type="preference")
    factories.memory("alice", "Booked the train to Hamburg", type="event")
    embed_pending_memories()
    preference.refresh_from_db()
    copies_of(preference, 5100)
    vector = embed_query("train seats")
    preferences = eligible_clause(user_id="alice", session_id=None, gate=query_gate("train seats"),
                                  types=["preference"])
    with CaptureQueriesContext(connection) as queries:
        found = widened_candidates(preferences, vector, 30, enough=20, found=5)
    assert any("enable_indexscan = off" in query["sql"] for query in queries)
    assert not any("max_scan_tuples" in query["sql"] for query in queries)
    assert found[0][0] == preference.pk  # the memory that matches the question first, not a random copy


def test_a_short_list_estimated_past_two_thousand_rows_is_scanned_without_counting_them_first(
        preferences_among_espresso_events):
    """Counting a 100k-memory user's eligible rows up to exact_scan_max_rows + 1 read their heap rows (70-216 ms
    on the 2M-memory bench) before the exact scan read them again. Where the planner estimates more than
    COUNTED_UP_TO eligible rows, its estimate decides between the exact and the widened scan: nothing is
    counted, and the exact scan still finds the rows."""
    liked, vector, preferences = preferences_among_espresso_events
    with CaptureQueriesContext(connection) as queries:
        found = widened_candidates(preferences, vector, 30, enough=20, found=1, estimated=COUNTED_UP_TO + 1)
    assert not any("count(*)" in query["sql"] for query in queries)
    assert any("enable_indexscan = off" in query["sql"] for query in queries)
    assert sorted(pk for pk, _ in found) == sorted(liked)


def test_a_big_users_filter_far_from_the_query_gets_the_iterative_scan_again_with_a_higher_bound(
        db, recall_config):
    """More eligible memories than exact_scan_max_rows, and the filter's rows far from the query: the usual
    iterative scan stops at its bound among the nearer rows of other types and comes back short, so no
    exact scan; the scan again with hnsw_widened_max_scan_tuples reaches the filter's rows."""
    recall_config({"memory_semantic": {"exact_scan_max_rows": 1, "hnsw_max_scan_tuples": 20,
                                       "hnsw_widened_max_scan_tuples": 5000},
                   "memory_retrieval": {"semantic_min_similarity": -1.0}})  # far rows are what this is about
    espresso_notes("alice", type="event")
    liked = [factories.memory("alice", text, type="preference").pk for text in
             ("Prefers the aisle seat on long flights", "Likes reading crime novels on the train",
              "Prefers quiet hotels away from the centre")]
    embed_pending_memories()
    vector = embed_query("espresso coffee tasting")
    preferences = eligible_clause(user_id="alice", session_id=None, gate=query_gate("espresso coffee tasting"),
                                  types=["preference"])
    with index_scans_forced():
        with connection.cursor() as cursor:  # as on a big table; LOCAL: the test's transaction ends them
            cursor.execute("SET LOCAL hnsw.max_scan_tuples = 20; SET LOCAL hnsw.ef_search = 10")
        short = nearest_rows(nearest(preferences, vector, 50), None)
        found = widened_candidates(preferences, vector, 50, enough=20, found=len(short))
    assert len(short) < len(liked)
    assert sorted(pk for pk, _ in found) == sorted(liked)


def test_when_the_scan_found_every_eligible_row_nothing_is_scanned_again(alice_among_bobs_espresso):
    alice, vector, mine = alice_among_bobs_espresso
    with CaptureQueriesContext(connection) as queries:
        assert widened_candidates(alice, vector, 50, enough=20, found=3) is None
    assert len(queries) == 1  # the count of alice's eligible rows, no scan


def test_a_gated_search_reads_its_domains_partial_index_and_is_not_crowded_out(db):
    """Work notes among many nearer personal ones: the professional gate's own index finds them."""
    espresso_notes("alice", domain="personal")
    work = [factories.memory("alice", text, domain="professional").pk for text in
            ("Coffee budget for the office kitchen is due Friday", "Pitching the coffee vendor contract to the board")]
    embed_pending_memories()
    vector = embed_query("espresso coffee tasting")
    gate = query_gate("espresso coffee tasting at work", domains=["professional", "scheduling"])
    eligible = eligible_clause(user_id="alice", session_id=None, gate=gate)
    with index_scans_forced(iterative=False):
        plan = "\n".join(row[0] for row in nearest_rows(nearest(eligible, vector, 40), "hnsw.ef_search = 40",
                                                        explain=True))
        found = [pk for pk, _ in nearest_rows(nearest(eligible, vector, 40), "hnsw.ef_search = 40")]
    assert "memory_hnsw_professional" in plan
    assert sorted(found) == sorted(work)


def generic_plan(query: tuple[str, dict]) -> str:
    """EXPLAIN of a (sql, params) query prepared and planned without its values: the generic plan that
    PostgreSQL may keep for a statement a connection asks again and again (settings.py prepares them)."""
    text, params = query
    names = list(dict.fromkeys(re.findall(r"%\((\w+)\)s", text)))
    text = re.sub(r"%\((\w+)\)s", lambda match: f"${names.index(match[1]) + 1}", text).replace("%%", "%")
    values = ", ".join(sql.Literal(params[name]).as_string(connection.connection) for name in names)
    with connection.cursor() as cursor:
        cursor.execute(f"PREPARE generic_probe AS {text}")
        try:
            cursor.execute("SET plan_cache_mode = force_generic_plan")
            cursor.execute(f"EXPLAIN EXECUTE generic_probe({values})")
            return "\n".join(row[0] for row in cursor.fetchall())
        finally:
            cursor.execute("RESET plan_cache_mode; DEALLOCATE generic_probe")


def test_a_generic_plan_still_reads_the_gates_partial_index(db):
    """The gate's domains are in the statement's text, not parameters (eligible.py): planned once for every
    search of that gate, the nearest query still knows it may read the gate's own HNSW index."""
    espresso_notes("alice", domain="personal")
    factories.memory("alice", "Coffee budget for the office kitchen is due Friday", domain="professional")
    embed_pending_memories()
    gate = query_gate("espresso coffee tasting at work", domains=["professional", "scheduling"])
    eligible = eligible_clause(user_id="alice", session_id=None, gate=gate)
    with index_scans_forced(iterative=False):
        plan = generic_plan(nearest(eligible, embed_query("espresso coffee tasting"), 40))
    assert "memory_hnsw_professional" in plan
    assert "'alice'" not in plan  # the user stays a parameter: one plan for every user


def _estimated_rows(plan: str) -> float:
    return float(re.search(r"rows=(\d+)", plan)[1])


@contextmanager
def statistics_analysed():
    """The memories' planner statistics as of now, for the code that reads them (search/retrieval/statistics.py):
    ANALYZE runs in the test's transaction and is rolled back with it, so the process's cached statistics are
    forgotten before and after."""
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE memories_memory")
    forget_statistics()
    try:
        yield
    finally:
        forget_statistics()


def searched(user_id: str, **filters) -> tuple[list, list[str]]:
    """(hits, the candidates statements it ran) of a search for "espresso coffee tasting" in every domain."""
    with CaptureQueriesContext(connection) as queries:
        hits = search_memories(user_id=user_id, query="espresso coffee tasting", include_all_domains=True,
                               **filters).hits
    return hits, [query["sql"] for query in queries if "candidate AS" in query["sql"]]


def test_a_user_many_times_the_partitions_average_gets_plans_costed_for_their_own_rows(db):
    """PostgreSQL keeps one generic plan per prepared statement, costed for `user_id = $1` as the partition's
    average user: on the 2M-memory bench, small users' statements made a 100k-memory user's nearest query a
    B-tree scan of 75,220 rows (81 ms, against 1.7 ms by its HNSW index). A user the statistics list at many
    times the average share has the id in the statements' text instead (statistics.py), so their kept plan
    is estimated for their own rows; the small users still share one statement and plan."""
    copies_of(factories.memory("alice", "Espresso tasting notes: chocolate and cherry"), 299)
    small_users = factories.users_in_the_partition_of("alice", 40)
    for user in small_users:
        factories.memory(user, "Likes a flat white in the morning")
    gate = query_gate("espresso coffee tasting", include_all_domains=True)
    with statistics_analysed():
        alice = eligible_clause(user_id="alice", session_id=None, gate=gate)
        small = [eligible_clause(user_id=user, session_id=None, gate=gate) for user in small_users[:2]]
    assert small[0].sql == small[1].sql and "'bob" not in small[0].sql
    own = _estimated_rows(generic_plan(alice.query("m.id")))
    shared = _estimated_rows(generic_plan((small[0].query("m.id")[0], alice.params)))
    # Both are a third of the user's rows (a parameter's confidence floor): alice's 300, or the average
    # user's 340 / 41 that the statement shared with the small users was costed for.
    assert own >= 90 and shared <= 5, (own, shared)


def test_a_user_beside_a_far_bigger_one_in_their_partition_has_their_own_rows_scanned_exactly(db):
    """A filtered HNSW scan visits about `limit / share` of a partition's tuples to keep `limit` of one user's:
    on the 2M-memory bench, 30-90 ms a question for a user of 5.4k memories beside a 100k-memory user. A user
    whose statistics put them at a small share of their partition has their own rows read instead
    (semantic.scanned_exactly) and finds their nearest memories with no HNSW walk; the big user keeps it."""
    bob = user_in_the_partition_of("alice")
    copies_of(factories.memory(bob, "Espresso tasting notes: chocolate and cherry"), 1500)
    mine = [factories.memory("alice", text).pk for text in
            ("Went to an espresso tasting at the roastery", "Prefers espresso from the Italian place",
             "Tasted a coffee with chocolate notes")]
    copies_of(factories.memory("alice", "Renewed the car insurance"), 60)
    for user in factories.users_in_the_partition_of("alice", 40):
        factories.memory(user, "Likes a flat white in the morning")
    embed_pending_memories()
    with statistics_analysed():
        (alices, alice_statements), (bobs, bob_statements) = searched("alice"), searched(bob)
    assert alices[0].memory.pk in mine and set(mine) <= {hit.memory.pk for hit in alices}
    assert {hit.memory.user_id for hit in alices} == {"alice"} and bobs
    assert {hit.memory.user_id for hit in bobs} == {bob}
    assert alice_statements and all("cosine_distance(m.embedding" in statement for statement in alice_statements)
    assert bob_statements and not any("cosine_distance(" in statement for statement in bob_statements)


def test_a_filter_keeping_few_of_a_big_users_rows_has_them_scanned_exactly(db):
    """Alone in a partition, a user's own rows fill it and the HNSW scan keeps the question; a types filter
    that keeps two of their 1,500 memories makes those two a small share of the partition: read exactly,
    with no HNSW walk and no widened scan after it."""
    copies_of(factories.memory("alice", "Espresso tasting notes: chocolate and cherry", type="event"), 1500)
    liked = [factories.memory("alice", text, type="preference").pk for text in
             ("Prefers espresso from the Italian place", "Likes coffee with chocolate notes")]
    embed_pending_memories()
    with statistics_analysed():
        _, unfiltered = searched("alice")
        hits, filtered = searched("alice", types=["preference"])
    assert sorted(hit.memory.pk for hit in hits) == sorted(liked)
    assert len(filtered) == 1 and "cosine_distance(m.embedding" in filtered[0]
    assert unfiltered and not any("cosine_distance(" in statement for statement in unfiltered)


def test_a_search_by_a_small_user_in_a_big_table_widens_the_scan_and_ranks_what_it_found(db):
    """The one-statement candidates (candidates.py) come back short, so the search asks again with the
    widened scan's rows: alice's memories, not bob's, ranked and explained as semantic matches."""
    espresso_notes("bob")
    flat_white = factories.memory("alice", "Likes a flat white in the morning").pk
    factories.memory("alice", "Drinks green tea after lunch")
    embed_pending_memories()
    with index_scans_forced(iterative=False):
        hits = search_memories(user_id="alice", query="a flat white coffee", include_all_domains=True).hits
    assert hits and hits[0].memory.pk == flat_white
    assert {hit.memory.user_id for hit in hits} == {"alice"}
    assert "semantic #1" in hits[0].explanation


def test_every_connection_starts_with_the_usual_hnsw_breadth_and_iterative_scans(db):
    """A search at the usual breadth needs no SET LOCAL (semantic.use_session_settings)."""
    with connection.cursor() as cursor:
        cursor.execute("SHOW hnsw.ef_search")
        assert int(cursor.fetchone()[0]) == hnsw_breadth(50) == connection.recall_hnsw_breadth
        cursor.execute("SHOW hnsw.iterative_scan")
        assert cursor.fetchone()[0] == "relaxed_order" and connection.recall_iterative_scan
        cursor.execute("SHOW hnsw.max_scan_tuples")
        assert cursor.fetchone()[0] == "2000"
    assert usual_breadth(50) is None
    assert usual_breadth(400) == "hnsw.ef_search = 400"


def test_iterative_scans_can_be_turned_off(db, recall_config):
    recall_config({"memory_semantic": {"hnsw_iterative_scan": False}})
    try:
        use_session_settings(None, connection)
        with connection.cursor() as cursor:
            cursor.execute("SHOW hnsw.iterative_scan")
            assert cursor.fetchone()[0] == "off" and not connection.recall_iterative_scan
    finally:
        recall_config({"memory_semantic": {"hnsw_iterative_scan": True}})
        use_session_settings(None, connection)


def test_generic_plans_are_a_connection_setting_off_by_default(db, recall_config):
    """memory_retrieval.generic_plans: a search's prepared statements keep one generic plan per connection."""
    def plan_mode():
        with connection.cursor() as cursor:
            cursor.execute("SHOW plan_cache_mode")
            return cursor.fetchone()[0]

    def plans_so_far():
        with connection.cursor() as cursor:
            cursor.execute("SELECT coalesce(sum(custom_plans), 0), coalesce(sum(generic_plans), 0) "
                           "FROM pg_prepared_statements")
            return cursor.fetchone()

    assert plan_mode() == "auto"
    recall_config({"memory_retrieval": {"generic_plans": True}})
    try:
        use_session_settings(None, connection)
        assert plan_mode() == "force_generic_plan"
        factories.memory("alice", "Lunch with Sarah on Thursday")
        before = plans_so_far()
        for _ in range(4):
            search_memories(user_id="alice", query="lunch with Sarah")
        custom, generic = (after - earlier for after, earlier in zip(plans_so_far(), before))
        assert generic > 0 and custom == 0
    finally:
        recall_config({"memory_retrieval": {"generic_plans": False}})
        use_session_settings(None, connection)
    assert plan_mode() == "auto"


def test_a_vector_written_as_text_reads_back_as_the_same_float32_vector(db):
    from search.retrieval.semantic import vector_literal

    row = factories.memory("alice", "Drinks a flat white every morning")
    embed_pending_memories()
    row.refresh_from_db()
    with connection.cursor() as cursor:
        cursor.execute("SELECT embedding = %s::vector, embedding <=> %s::vector FROM memories_memory WHERE id = %s",
                       [vector_literal(list(row.embedding)), vector_literal(embed_query(row.content)), row.pk])
        same, distance = cursor.fetchone()
    assert same and abs(distance) < 1e-6


@pytest.mark.parametrize("big_user", [True, False])
def test_a_full_list_far_from_the_question_is_scanned_again_for_a_big_user(db, recall_config, big_user):
    """Every eligible memory far from the question: on a big table a filtered HNSW scan then returned a full
    list of rows farther than the nearest ones. A list with fewer than the results asked for past the floor,
    the best below far_scan_similarity, is widened like a short one (here: the exact scan, which finds the
    nearest), but only for a user with more than far_scan_min_rows eligible memories (the planner's estimate)."""
    from django.utils import timezone

    from recall_site.config import recall_setting
    from search.retrieval.candidates import find_candidates
    from search.retrieval.semantic import vector_literal

    recall_config({"memory_semantic": {"far_scan_min_rows": 0 if big_user else 10**6}})
    espresso_notes("alice", type="event")
    embed_pending_memories()
    question = "filing the quarterly tax return before the deadline"
    vector = vector_literal(embed_query(question))
    eligible = eligible_clause(user_id="alice", session_id=None, gate=query_gate(question, include_all_domains=True),
                               types=["event"])
    with CaptureQueriesContext(connection) as queries:
        found = find_candidates(eligible, vector=vector, lexical=[], reached=[], paths={}, limit=30, enough=20,
                                now=timezone.now(), lexeme_weights={})
    far = recall_setting("memory_semantic.far_scan_similarity")
    floor = recall_setting("memory_retrieval.semantic_min_similarity")
    similarity = {row.pk: row.similarity for row in found.rows}
    assert len(found.ids["semantic"]) < 20 and all(similarity[pk] < far for pk in found.ids["semantic"])
    exact_scans = [query for query in queries if "enable_indexscan = off" in query["sql"]]
    assert bool(exact_scans) == big_user
    if big_user:
        exact = nearest_rows(nearest(eligible, vector, 30), "enable_indexscan = off")
        assert found.ids["semantic"] == [pk for pk, distance in exact if 1 - distance >= floor]


def test_an_exact_scan_finds_an_eligible_memory_by_its_sentence_past_nearer_sentences_of_filtered_out_ones(db):
    """An exact scan reads the sentences of eligible memories only: the nearer sentences of the user's events,
    which a types filter leaves out, do not fill its list of nearest sentences, so a preference that one of
    its sentences matches (its whole text about other things) is among the nearest."""
    for n in range(4):
        factories.memory("alice", f"Espresso coffee tasting at the roastery. Took notes on cup {n}.", type="event")
    for text in ("Likes espresso after dinner", "Prefers coffee from the Italian place"):
        factories.memory("alice", text, type="preference")  # whole texts nearer the question than the next one's
    tasting = factories.memory("alice", "Renews the passport before every trip to Lisbon. Keeps the receipts in a"
                               " blue folder. Waters the plants on Sunday. Enjoys espresso tasting.",
                               type="preference").pk
    embed_pending_memories()
    gate = query_gate("espresso coffee tasting", include_all_domains=True)
    eligible = eligible_clause(user_id="alice", session_id=None, gate=gate, types=["preference"])
    rows = nearest_rows(nearest(eligible, embed_query("espresso coffee tasting"), 2, exact=True), None)
    assert tasting in [pk for pk, _ in rows]
