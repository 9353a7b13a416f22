"""The full-text retriever: tiers of matched lexemes and the gated full-text indexes."""
from django.db import connection, transaction

from memories.retrieval.eligible import eligible_clause
from memories.retrieval.gating import query_gate
from memories.retrieval.lexical import lexical_candidates, query_lexemes, ranked_matches
from tests import factories


def test_memories_holding_more_of_the_query_come_first_and_vectors_leave_partial_overlaps_out(db):
    newest_first = [factories.memory("alice", text).pk for text in (
        "Lunch with Sarah at the corner cafe",  # all three words
        "Lunch with Sarah on Friday",  # two
        "The cafe downstairs closes early",  # one
    )]
    factories.memory("bob", "Lunch with Sarah at the cafe by the river")
    gate = query_gate("lunch with Sarah at a cafe", include_all_domains=True)
    eligible = eligible_clause(user_id="alice", session_id=None, gate=gate)
    lexemes = query_lexemes("lunch with Sarah at a cafe")
    assert lexical_candidates(eligible, lexemes, 10) == newest_first
    assert lexical_candidates(eligible, lexemes, 2) == newest_first[:2]
    assert lexical_candidates(eligible, lexemes, 10, all_lexemes=True) == newest_first[:1]


def test_with_vectors_a_match_shared_by_too_many_memories_is_left_to_them(db, recall_config):
    recall_config({"memory_retrieval": {"lexical_max_matches": 2}})
    weekly = [factories.memory("alice", f"Weekly planning meeting, week {n}").pk for n in range(3)]
    eligible = eligible_clause(user_id="alice", session_id=None, gate=query_gate("weekly planning meeting"))
    lexemes = query_lexemes("weekly planning meeting")
    assert lexical_candidates(eligible, lexemes, 10, all_lexemes=True) == []  # three share every word
    assert lexical_candidates(eligible, lexemes, 10) == weekly[::-1]  # text-only: full text ranks them all
    recall_config({"memory_retrieval": {"lexical_max_matches": 3}})
    assert lexical_candidates(eligible, lexemes, 2, all_lexemes=True) == weekly[:0:-1]


def test_a_health_query_reads_the_health_full_text_index(db):
    factories.memory("alice", "Dentist appointment moved to Tuesday", domain="scheduling")
    allergy = factories.memory("alice", "Allergic to penicillin, told by the dentist", domain="health",
                               sensitive=True, confidence=0.9)
    gate = query_gate("what did the dentist say about my allergy")
    assert gate.domains == ["health"]
    eligible = eligible_clause(user_id="alice", session_id=None, gate=gate)
    sql, params = ranked_matches(eligible, "'dentist'", 10)
    with transaction.atomic(), connection.cursor() as cursor:
        found = cursor.execute(sql, params).fetchall()
        # On a big table the planner prefers the small partial index; here, with a handful of rows, it
        # would scan anything. Whether the gate's filter can use the index at all is what matters:
        # with the other indexes and plain scans out of the way (rolled back below), it must.
        sid = transaction.savepoint()
        cursor.execute("DROP INDEX memory_search_vector_gin, memory_user_type_status, memory_user_session, "
                       "memory_user_review; SET LOCAL enable_seqscan = off; SET LOCAL enable_indexscan = off")
        plan = "\n".join(row[0] for row in cursor.execute(f"EXPLAIN {sql}", params).fetchall())
        transaction.savepoint_rollback(sid)
    assert "Bitmap Index Scan on memory_fts_health" in plan, plan
    assert found == [(allergy.pk,)]
