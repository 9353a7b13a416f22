"""The semantic retriever when pgvector's post-filtered HNSW scan comes back short."""
from django.db import connection

from memories.embedding import embed_query
from memories.models import Memory
from memories.retrieval.eligible import eligible_memories
from memories.retrieval.gating import query_gate
from memories.retrieval.semantic import hnsw_search_breadth, nearest, semantic_candidates
from memories.tasks import embed_pending_memories
from tests import factories


def test_a_small_user_in_a_big_table_still_gets_their_nearest_memories(db):
    for n in range(150):
        factories.memory("bob", f"Espresso tasting notes, roast batch {n}: chocolate and cherry")
    mine = [factories.memory("alice", text).pk for text in
            ("Likes a flat white in the morning", "Drinks green tea after lunch", "Avoids coffee after 4pm")]
    embed_pending_memories()
    vector = embed_query("espresso coffee tasting")
    alice = Memory.objects.filter(user_id="alice")
    with connection.cursor() as cursor:  # make the planner take the HNSW index, as on a big table
        cursor.execute("SET enable_seqscan = off; SET enable_bitmapscan = off; SET enable_sort = off")
    try:
        with hnsw_search_breadth(50):
            assert len(list(nearest(alice, vector)[:50])) < 3  # bob's rows fill the HNSW candidates
        found = [pk for pk, _ in semantic_candidates(alice, vector, 50, user_id="alice")]
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
    eligible = eligible_memories(user_id="alice", session_id=None, gate=gate)
    with connection.cursor() as cursor:  # make the planner take an HNSW index, as on a big table
        cursor.execute("SET enable_seqscan = off; SET enable_bitmapscan = off; SET enable_sort = off")
    try:
        with hnsw_search_breadth(40):
            plan = nearest(eligible, vector)[:40].explain()
            found = [pk for pk, _ in nearest(eligible, vector)[:40]]
    finally:
        with connection.cursor() as cursor:
            cursor.execute("RESET enable_seqscan; RESET enable_bitmapscan; RESET enable_sort")
    assert "memory_hnsw_professional" in plan
    assert sorted(found) == sorted(work)
