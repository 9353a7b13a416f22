"""The full-text retriever: any of the question's words, rarest first, and the gated full-text indexes."""
import re

from django.db import connection, transaction

from search.retrieval import search_memories
from search.retrieval.eligible import eligible_clause
from search.retrieval.gating import query_gate
from search.retrieval.lexical import (
    ALWAYS_COUNTED_BELOW,
    QueryTerms,
    lexical_candidates,
    query_lexemes,
    query_terms,
    ranked_matches,
)
from search.retrieval.statistics import forget_statistics
from tests import factories


def test_a_natural_question_finds_memories_sharing_its_rare_words_first(db):
    support_group = factories.memory("alice", "Went to an LGBTQ support group yesterday, it was powerful").pk
    chatter = [factories.memory("alice", f"Caroline said the weather was nice, day {n}").pk for n in range(4)]
    factories.memory("alice", "Painted a sunrise over the lake")  # shares no word with the question
    factories.memory("bob", "Caroline went to the LGBTQ support group")
    question = "When did Caroline go to the LGBTQ support group?"
    eligible = eligible_clause(user_id="alice", session_id=None, gate=query_gate(question, include_all_domains=True))
    terms = query_terms(eligible, query_lexemes(question))
    caroline, lgbtq = sorted(query_lexemes("LGBTQ Caroline"))  # as stemmed: "carolin"
    assert terms.weights[lgbtq] > terms.weights[caroline]  # one memory holds "lgbtq", four hold "caroline"
    assert "go" not in terms.weights  # no memory of alice's holds it
    found = lexical_candidates(eligible, terms, 10, with_vectors=True)
    assert found[0] == support_group  # not one of the memories holding only the common word
    assert sorted(found[1:]) == sorted(chatter)
    assert lexical_candidates(eligible, terms, 2, with_vectors=True) == found[:2]


def test_a_word_shared_by_too_many_memories_counts_as_a_stop_word(db, recall_config):
    recall_config({"memory_retrieval": {"lexical_max_matches": 2}})
    weekly = [factories.memory("alice", f"Weekly planning meeting, week {n}").pk for n in range(3)]
    budget = factories.memory("alice", "Budget meeting with finance").pk
    gate = query_gate("weekly budget meeting", include_all_domains=True)
    eligible = eligible_clause(user_id="alice", session_id=None, gate=gate)
    terms = query_terms(eligible, query_lexemes("weekly budget meeting"))
    assert terms.informative == ["budget"]  # "weekly" (3) and "meet" (4) are held by more than 2
    assert lexical_candidates(eligible, terms, 10, with_vectors=True) == [budget]
    common = QueryTerms({lexeme: terms.weights[lexeme] for lexeme in terms.common}, terms.common)
    assert lexical_candidates(eligible, common, 10, with_vectors=True) == []  # left to the vectors
    # Without vectors: the memories holding every word, ranked among the first lexical_max_matches found.
    every_word = lexical_candidates(eligible, common, 10, with_vectors=False)
    assert len(every_word) == 2 and set(every_word) <= set(weekly)


def test_a_word_the_statistics_call_common_is_not_counted(db, recall_config):
    """After ANALYZE, pg_stats says how many memories hold a common word: it is estimated from there (all the
    query's words at once), not counted, so its frequency is the estimate, not the counting cap. Only for a
    user with more than ALWAYS_COUNTED_BELOW × the cap memories: a smaller one has every word counted."""
    recall_config({"memory_retrieval": {"lexical_max_matches": 4}})
    for n in range(4 * ALWAYS_COUNTED_BELOW + 20):
        factories.memory("alice", f"Weekly planning meeting, week {n}")
    budget = factories.memory("alice", "Budget meeting with finance").pk
    gate = query_gate("budget meeting", include_all_domains=True)
    eligible = eligible_clause(user_id="alice", session_id=None, gate=gate)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE memories_memory")  # in the test's transaction: rolled back with it
    forget_statistics()
    try:
        terms = query_terms(eligible, query_lexemes("budget meeting"))
    finally:
        forget_statistics()  # the rolled-back statistics must not outlive this test
    assert terms.common == {"meet"} and terms.frequencies["meet"] > 5  # 121 holders, estimated
    assert terms.frequencies["budget"] == 1  # a rare word is counted
    assert lexical_candidates(eligible, terms, 10, with_vectors=True) == [budget]


def test_a_health_query_reads_the_health_full_text_index(db):
    factories.memory("alice", "Dentist appointment moved to Tuesday", domain="scheduling")
    allergy = factories.memory("alice", "Allergic to penicillin, told by the dentist", domain="health",
                               sensitive=True, confidence=0.9)
    gate = query_gate("what did the dentist say about my allergy")
    assert gate.domains == ["health"]
    eligible = eligible_clause(user_id="alice", session_id=None, gate=gate)
    sql, params = ranked_matches(eligible, QueryTerms({"dentist": 1.0}), ["dentist"], 10)
    with connection.cursor() as cursor:
        found = cursor.execute(sql, params).fetchall()
    # On a big table the planner prefers the small partial index; here, with a handful of rows, it would
    # scan anything. Whether the gate's filter can use the index at all is what matters.
    plan = _plan_through_full_text_indexes(sql, params, also_drop=["memory_words"])
    assert "Bitmap Index Scan on memory_words_health" in plan, plan
    assert found == [(allergy.pk,)]


def test_another_users_vocabulary_does_not_change_how_a_users_words_weigh(db, recall_config):
    """Word rarity is the user's own: another tenant whose every memory holds "coffee" must not turn alice's
    "coffee" into a stop word, nor change what her search finds and in which order (#29)."""
    recall_config({"memory_retrieval": {"lexical_max_matches": 20}})
    for n in range(15):
        factories.memory("alice", f"Coffee with a colleague, week {n}")
        factories.memory("alice", f"Read a chapter of the novel, week {n}")
    question = "coffee with the novel club"
    eligible = eligible_clause(user_id="alice", session_id=None,
                               gate=query_gate(question, include_all_domains=True))

    def alices_search():
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE memories_memory")  # in the test's transaction: rolled back with it
        forget_statistics()
        try:
            terms = query_terms(eligible, query_lexemes(question))
            found = search_memories(user_id="alice", query=question, include_all_domains=True, limit=10)
            return terms, lexical_candidates(eligible, terms, 10, with_vectors=True), [
                hit.memory.pk for hit in found.hits]
        finally:
            forget_statistics()  # the rolled-back statistics must not outlive this test

    alone = alices_search()
    for n in range(300):
        factories.memory("bob", f"Coffee order number {n}")
    beside_bob = alices_search()
    assert "coffe" in alone[0].informative  # 15 of her 30 memories: under the cap of 20
    assert alone[2]  # the search finds her memories (near-duplicates folded into one)
    assert beside_bob == alone


def test_memories_holding_every_word_come_before_those_holding_some_and_fill_the_limit_first(db):
    """One statement asks for both: the memories holding all the informative words (by ts_rank), then those
    holding any of the rarest, by summed rarity, none twice; a limit the first part fills gets no others."""
    every = [factories.memory("alice", f"Budget review for the marketing deadline, draft {n}").pk for n in range(3)]
    budget_only = factories.memory("alice", "Budget spreadsheet for the trip").pk
    marketing_only = factories.memory("alice", "Marketing offsite in the spring").pk
    question = "marketing budget deadline"
    eligible = eligible_clause(user_id="alice", session_id=None, gate=query_gate(question, include_all_domains=True))
    terms = query_terms(eligible, query_lexemes(question))
    assert len(terms.informative) == 3
    found = lexical_candidates(eligible, terms, 10, with_vectors=True)
    assert sorted(found[:3]) == sorted(every)
    assert sorted(found[3:]) == sorted([budget_only, marketing_only])
    assert lexical_candidates(eligible, terms, 4, with_vectors=True) == found[:4]
    assert sorted(lexical_candidates(eligible, terms, 2, with_vectors=True)) == sorted(found[:2])
    assert set(found[:2]) <= set(every)


def _plan_through_full_text_indexes(sql: str, params: dict, *, also_drop=(), analyze: bool = False) -> str:
    """The statement's plan with every other way in than the full-text indexes (and `also_drop`) dropped and
    plain scans off, all rolled back."""
    with transaction.atomic(), connection.cursor() as cursor:
        sid = transaction.savepoint()
        dropped = ", ".join([*also_drop, "memory_user_type_status", "memory_user_session", "memory_user_review",
                             "memory_user_domain_status"])
        cursor.execute(f"DROP INDEX {dropped}; SET LOCAL enable_seqscan = off; SET LOCAL enable_indexscan = off;"
                       " SET CONSTRAINTS ALL IMMEDIATE; ALTER TABLE memories_memory DROP CONSTRAINT memories_memory_pkey CASCADE")
        explain = "EXPLAIN ANALYZE" if analyze else "EXPLAIN"
        plan = "\n".join(row[0] for row in cursor.execute(f"{explain} {sql}", params).fetchall())
        transaction.savepoint_rollback(sid)
    return plan


def test_a_users_full_text_lookup_reads_only_that_users_postings(db):
    """The full-text indexes hold each memory's words with its user's token (memories/user_words.py): another
    user of the same partition whose memories hold the same words, however many, is not even read. Indexed
    by the words alone, the index handed back all 41 rows and the others were dropped by their user (#29)."""
    neighbour, = factories.users_in_the_partition_of("alice", 1)
    for n in range(40):
        factories.memory(neighbour, f"Medication I take every week, dose {n}", domain="health")
    mine = factories.memory("alice", "Medication I take every week with breakfast", domain="health")
    question = "medication I take every week"
    eligible = eligible_clause(user_id="alice", session_id=None, gate=query_gate(question))
    terms = query_terms(eligible, query_lexemes(question))
    sql, params = ranked_matches(eligible, terms, terms.informative, 10, every_word=True)
    with connection.cursor() as cursor:
        found = cursor.execute(sql, params).fetchall()
    # A handful of rows is read faster any other way: how many rows the full-text index hands back counts.
    plan = _plan_through_full_text_indexes(sql, params, analyze=True)
    assert found == [(mine.pk,)]
    read = re.findall(r"Bitmap Index Scan on memory_words\w* .*actual time=\S+ rows=(\d+)", plan)
    assert read == ["1"], plan


def test_user_ids_with_quotes_backslashes_and_spaces_find_their_own_memories_by_their_words(db):
    users = ["o'brien", "back\\slash", "two words", "ünï:cöde@x", "'"]
    own = {user: factories.memory(user, "Fed the sourdough starter at noon").pk for user in users}
    question = "sourdough starter"
    for user in users:
        eligible = eligible_clause(user_id=user, session_id=None, gate=query_gate(question, include_all_domains=True))
        terms = query_terms(eligible, query_lexemes(question))
        assert terms.frequencies == {lexeme: 1 for lexeme in query_lexemes(question)}, user
        assert lexical_candidates(eligible, terms, 10, with_vectors=False) == [own[user]], user
