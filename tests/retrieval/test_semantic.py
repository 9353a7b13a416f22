"""The semantic retriever when pgvector's post-filtered HNSW scan comes back short."""
from django.db import connection

from memories.embedding import embed_query
from memories.tasks import embed_pending_memories
from search.retrieval import search_memories
from search.retrieval.eligible import eligible_clause
from search.retrieval.gating import query_gate
from search.retrieval.semantic import hnsw_breadth, nearest, nearest_rows, usual_breadth, widened_candidates
from tests import factories


def test_a_small_user_in_a_big_table_still_gets_their_nearest_memories(db):
    for n in range(150):
        factories.memory("bob", f"Espresso tasting notes, roast batch {n}: chocolate and cherry")
    mine = [factories.memory("alice", text).pk for text in
            ("Likes a flat white in the morning", "Drinks green tea after lunch", "Avoids coffee after 4pm")]
    embed_pending_memories()
    vector = embed_query("espresso coffee tasting")
    alice = eligible_clause(user_id="alice", session_id=None, gate=query_gate("espresso coffee tasting"))
    with connection.cursor() as cursor:  # make the planner take the HNSW index, as on a big table
        cursor.execute("SET enable_seqscan = off; SET enable_bitmapscan = off; SET enable_sort = off")
    try:
        # bob's rows fill the HNSW candidates
        short = nearest_rows(nearest(alice, vector, 50), "hnsw.ef_search = 50")
        assert len(short) < 3
        found = [pk for pk, _ in widened_candidates(alice, vector, 50, user_id="alice", enough=20, found=len(short))]
    finally:
        with connection.cursor() as cursor:
            cursor.execute("RESET enable_seqscan; RESET enable_bitmapscan; RESET enable_sort")
    assert set(found) <= set(mine) and mine[2] in found


def test_a_gated_search_reads_its_domains_partial_index_and_is_not_crowded_out(db):
    """Work notes among many nearer personal ones: the professional gate's own index finds them."""
    for n in range(150):
        factories.memory("alice", f"Espresso tasting notes, roast batch {n}: chocolate and cherry", domain="personal")
    work = [factories.memory("alice", text, domain="professional").pk for text in
            ("Coffee budget for the office kitchen is due Friday", "Pitching the coffee vendor contract to the board")]
    embed_pending_memories()
    vector = embed_query("espresso coffee tasting")
    gate = query_gate("espresso coffee tasting at work", domains=["professional", "scheduling"])
    eligible = eligible_clause(user_id="alice", session_id=None, gate=gate)
    with connection.cursor() as cursor:  # make the planner take an HNSW index, as on a big table
        cursor.execute("SET enable_seqscan = off; SET enable_bitmapscan = off; SET enable_sort = off")
    try:
        plan = "\n".join(row[0] for row in nearest_rows(nearest(eligible, vector, 40), "hnsw.ef_search = 40",
                                                        explain=True))
        found = [pk for pk, _ in nearest_rows(nearest(eligible, vector, 40), "hnsw.ef_search = 40")]
    finally:
        with connection.cursor() as cursor:
            cursor.execute("RESET enable_seqscan; RESET enable_bitmapscan; RESET enable_sort")
    assert "memory_hnsw_professional" in plan
    assert sorted(found) == sorted(work)


def test_a_search_by_a_small_user_in_a_big_table_widens_the_scan_and_ranks_what_it_found(db):
    """The one-statement candidates (candidates.py) come back short, so the search asks again with the
    widened scan's rows: alice's memories, not bob's, ranked and explained as semantic matches."""
    for n in range(150):
        factories.memory("bob", f"Espresso tasting notes, roast batch {n}: chocolate and cherry")
    flat_white = factories.memory("alice", "Likes a flat white in the morning").pk
    factories.memory("alice", "Drinks green tea after lunch")
    embed_pending_memories()
    with connection.cursor() as cursor:  # make the planner take the HNSW index, as on a big table
        cursor.execute("SET enable_seqscan = off; SET enable_bitmapscan = off; SET enable_sort = off")
    try:
        hits = search_memories(user_id="alice", query="a flat white coffee", include_all_domains=True).hits
    finally:
        with connection.cursor() as cursor:
            cursor.execute("RESET enable_seqscan; RESET enable_bitmapscan; RESET enable_sort")
    assert hits and hits[0].memory.pk == flat_white
    assert {hit.memory.user_id for hit in hits} == {"alice"}
    assert "semantic #1" in hits[0].explanation


def test_every_connection_starts_with_the_usual_hnsw_breadth(db):
    """A search at the usual breadth needs no SET LOCAL (semantic.use_session_breadth)."""
    with connection.cursor() as cursor:
        cursor.execute("SHOW hnsw.ef_search")
        assert int(cursor.fetchone()[0]) == hnsw_breadth(50) == connection.recall_hnsw_breadth
    assert usual_breadth(50) is None
    assert usual_breadth(400) == "hnsw.ef_search = 400"


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
