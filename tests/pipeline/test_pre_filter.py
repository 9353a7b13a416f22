"""pre_filter: junk is rejected below 0.55, the seed's storable messages pass; precision/recall on a fixture."""
from pathlib import Path

import pytest
import yaml

from memories.pipeline.pre_filter import relevance_score
from tests.pipeline.conftest import ingest

FIXTURE = Path(__file__).parents[1] / "fixtures" / "pipeline" / "relevance.yaml"
HELD_OUT = FIXTURE.with_name("relevance_held_out.yaml")
THRESHOLD = 0.55


@pytest.mark.parametrize("text", [
    "ha that's funny", "ok done", "“Stay hungry, stay foolish.” — Steve Jobs",
    "why did the chicken cross the road?", "did you know octopuses have three hearts?",
    "it's so rainy today", "thanks!",
])
def test_junk_scores_below_the_threshold(text):
    score, reason = relevance_score(text)
    assert score < THRESHOLD and reason


@pytest.mark.parametrize("text", [
    "I prefer morning meetings", "lunch with Sarah Thursday", "just moved to Berlin", "Alex is Sarah's partner",
    "my sister Emma is visiting next week",
])
def test_seed_messages_pass(text):
    assert relevance_score(text)[0] >= THRESHOLD


@pytest.mark.parametrize("text", [
    "Alex thinks the apartment move to Potsdam is a mistake because of the long commute.",
    "Sarah said the new office opens in March", "Emma is planning a trip to see us", "Tom loves his new bike",
    "my dad told me he wants to retire early",
])
def test_statements_about_the_people_in_the_users_life_pass(text):
    assert relevance_score(text)[0] >= THRESHOLD


@pytest.mark.parametrize("text", [
    "I went to a LGBTQ support group yesterday and it was so powerful.",
    "Been busy volunteering at the shelter. Just started doing aerial yoga, it's great.",
    "Playing guitar helps me get my emotions out.",
])
def test_chat_about_ones_own_life_passes(text):
    assert relevance_score(text)[0] >= THRESHOLD


@pytest.mark.parametrize("text", [
    "Wow, that's great!", "Thanks!", "Take care!", "Congrats, Mel!", "Haha, yeah!", "Sounds fun!",
    "No worries! Let me know how it goes.", "Wow, that's awesome! Glad to hear you guys are bonding. Keep it up!",
    "Thanks for the compliment, I really appreciate it!",
])
def test_chat_filler_is_rejected(text):
    assert relevance_score(text)[0] < THRESHOLD


def precision_recall(path: Path) -> tuple[int, float, float]:
    labelled = yaml.safe_load(path.read_text())
    kept_relevant = sum(relevance_score(text)[0] >= THRESHOLD for text in labelled["relevant"])
    kept_junk = sum(relevance_score(text)[0] >= THRESHOLD for text in labelled["junk"])
    total = len(labelled["relevant"]) + len(labelled["junk"])
    return total, kept_relevant / (kept_relevant + kept_junk), kept_relevant / len(labelled["relevant"])


def test_precision_and_recall_on_the_labelled_fixture():
    total, precision, recall = precision_recall(FIXTURE)
    print(f"\npre_filter on {total} labelled messages: precision {precision:.3f}, recall {recall:.3f}")
    assert total >= 150
    assert precision >= 0.95 and recall >= 0.9


def test_precision_and_recall_on_held_out_messages():
    total, precision, recall = precision_recall(HELD_OUT)
    print(f"\npre_filter on {total} held-out messages: precision {precision:.3f}, recall {recall:.3f}")
    assert precision >= 0.9 and recall >= 0.85


def test_rejections_are_traced_with_stage_reason_and_score(run):
    trace = run("ok done", "I prefer morning meetings")
    rejected, stored = trace.entries
    assert (rejected.outcome, rejected.stage) == ("rejected", "pre_filter")
    assert rejected.reason == "low_relevance:acknowledgement" and rejected.score < THRESHOLD
    assert stored.outcome == "stored" and stored.score >= THRESHOLD


def test_only_user_messages_become_memories(run):
    trace = run("I prefer morning meetings", role="assistant")
    assert [(e.outcome, e.reason) for e in trace.entries] == [("rejected", "not_a_user_message")]
    assert trace.memory_ids == []
