"""infer: a repeated behaviour becomes a preference candidate, promoted only at ≥ 0.75 after ≥ 4 sessions."""
from datetime import timedelta

from memories.models import Memory
from tests.pipeline.conftest import MONDAY

PATTERN = "Prefers not to have Monday morning commitments"


def inferred():
    return Memory.objects.get(user_id="alice", content=PATTERN)


def test_four_reschedules_across_sessions_promote_the_preference(run):
    seen = []
    for week in range(4):
        trace = run("moved my Monday 9am meeting", session_id=f"week-{week}", at=MONDAY + timedelta(weeks=week))
        memory = inferred()
        seen.append((memory.occurrences, memory.confidence, memory.needs_review))
        assert memory.source == "inferred" and memory.type == "preference"
        outcome = [r.outcome for r in trace.entries[0].results if r.content == PATTERN]
        assert outcome == (["sent_to_review"] if week < 3 else ["reinforced"])
    assert seen == [(1, 0.35, True), (2, 0.5, True), (3, 0.65, True), (4, 0.8, False)]
    assert inferred().review_reason == ""
    assert Memory.objects.filter(content=PATTERN).count() == 1


def test_repeats_within_one_session_do_not_count(run):
    for minute in range(4):
        run("moved my Monday 9am meeting", session_id="s1", at=MONDAY + timedelta(minutes=minute))
    memory = inferred()
    assert (memory.occurrences, memory.confidence, memory.needs_review) == (1, 0.35, True)


def test_never_promoted_before_four_occurrences_even_with_a_steep_step(run, recall_config):
    recall_config({"memory": {"pattern_confidence_step": 0.5}})
    for week in range(3):
        run("cancelled the Monday 9am sync again", session_id=f"w{week}", at=MONDAY + timedelta(weeks=week))
    memory = inferred()
    assert memory.confidence >= 0.75 and memory.occurrences == 3 and memory.needs_review
    run("moved my Monday 9am meeting", session_id="w3", at=MONDAY + timedelta(weeks=3))
    assert not inferred().needs_review


def test_patterns_are_per_user(run):
    for week in range(4):
        run("moved my Monday 9am meeting", session_id=f"w{week}", user_id="bob", at=MONDAY + timedelta(weeks=week))
    run("moved my Monday 9am meeting", session_id="a1")
    assert (inferred().occurrences, inferred().needs_review) == (1, True)
