"""reconcile: repeats reinforce instead of adding rows; a new value for an attribute supersedes."""
from datetime import timedelta

from entities.models import Relation
from memories.models import Memory, MemoryHistory
from tests.pipeline.conftest import MONDAY


def active(user_id="alice", **filters):
    return Memory.objects.filter(user_id=user_id, status="active", **filters)


def test_saying_the_same_thing_twice_reinforces(run):
    first = run("I prefer morning meetings", session_id="s1")
    later = MONDAY + timedelta(days=5)
    second = run("I really prefer morning meetings!", session_id="s2", at=later)
    assert second.entries[0].outcome == "reinforced"
    assert second.entries[0].results[0].memory_id == first.memory_ids[0]
    memory = active(type="preference").get()
    assert memory.occurrences == 2
    assert memory.confidence == 0.70  # 0.65 + reinforce_confidence_step 0.05
    assert memory.last_reinforced_at == later
    assert len(memory.source_message_ids) == 2
    assert list(MemoryHistory.objects.filter(memory=memory).values_list("action", "session_id")) == [
        ("created", "s1"), ("reinforced", "s2")]


def test_reinforcement_caps_confidence_at_0_99(run):
    for session in range(5):
        run("I work at Volkswagen", session_id=f"s{session}")
    memory = active(attribute="employer").get()
    assert (memory.occurrences, memory.confidence) == (5, 0.99)


def test_moving_supersedes_the_old_residence(run):
    run("I live in Berlin", session_id="s1")
    moved_at = MONDAY + timedelta(days=30)
    trace = run("I moved to Munich", session_id="s2", at=moved_at)
    entry = trace.entries[0]
    assert (entry.outcome, entry.reason) == ("superseded", "new_value:residence")
    old = Memory.objects.get(content="Lives in Berlin")
    new = Memory.objects.get(content="Lives in Munich")
    assert (old.status, old.superseded_by, old.valid_to) == ("superseded", new, moved_at)
    assert entry.results[0].superseded_ids == [old.pk]
    assert active(attribute="residence").get() == new
    edges = {(r.object.canonical_name, r.status) for r in Relation.objects.filter(user_id="alice", predicate="lives_in")}
    assert edges == {("Berlin", "superseded"), ("Munich", "active")}


def test_leaving_a_job_for_another_supersedes_the_old_employer(run):
    run("I work at Stripe as a data engineer.", session_id="s1")
    trace = run("I left Stripe, now I'm at Databricks.", session_id="s2", at=MONDAY + timedelta(days=30))
    assert (trace.entries[0].outcome, trace.entries[0].reason) == ("superseded", "new_value:employer")
    assert list(active(attribute="employer").values_list("content", flat=True)) == ["Works at Databricks"]
    run("I left the party early, now I'm at Joe's place.", session_id="s3")  # not a job
    assert list(active(attribute="employer").values_list("content", flat=True)) == ["Works at Databricks"]


def test_saying_no_takes_an_allergy_or_a_job_back(run):
    run("I'm allergic to shellfish.", session_id="s1")
    run("I'm allergic to shellfish.", session_id="s2")  # said again: reinforced, not taken back
    assert active(attribute="allergy:shellfish").get().occurrences == 2
    trace = run("Correction: I'm not allergic to shellfish, it's peanuts.", session_id="s3")  # "Correction" is no one
    assert trace.entries[0].outcome == "superseded"
    assert list(active(attribute="allergy:shellfish").values_list("content", flat=True)) == [
        "Not allergic to shellfish"]
    assert Memory.objects.get(content="Allergic to shellfish").status == "superseded"
    run("I work at Stripe.", session_id="s4")
    run("I don't work at Stripe anymore.", session_id="s5")
    assert list(active(attribute="employer").values_list("content", flat=True)) == ["No longer works at Stripe"]


def test_a_new_favourite_supersedes_the_old_one(run):
    run("My favorite restaurant is Nopa.")
    run("My new favorite restaurant is Zuni Cafe.", session_id="s2")
    assert list(active(type="preference").values_list("content", flat=True)) == [
        "Favourite restaurant is Zuni Cafe"]


def test_preferences_supersede_readily(run):
    run("I prefer morning meetings")
    run("I prefer afternoon meetings", session_id="s2")
    assert list(active(type="preference").values_list("content", flat=True)) == ["Prefers afternoon meetings"]
    assert Memory.objects.get(content="Prefers morning meetings").status == "superseded"


def test_a_new_manager_supersedes_the_old_manager_relation(run):
    run("Sarah is my manager")
    run("Tom is my manager", session_id="s2")
    assert list(active(type="relation").values_list("content", flat=True)) == ["Tom is the user's manager"]


def test_a_meeting_moved_to_another_day_supersedes_the_old_date(run):
    run("I have a meeting with Dana on Tuesday at 10am.", session_id="s1")
    run("Lunch with Sarah on Tuesday.", session_id="s1")
    trace = run("The meeting with Dana moved to Thursday.", session_id="s2", at=MONDAY + timedelta(hours=2))
    assert trace.entries[0].outcome == "superseded"
    assert Memory.objects.get(content__startswith="I have a meeting with Dana").status == "superseded"
    assert Memory.objects.get(content="Lunch with Sarah on Tuesday.").status == "active"  # another event, kept
    moved = active(content="The meeting with Dana moved to Thursday.").get()
    assert moved.valid_from.strftime("%A") == "Thursday"


def test_different_events_on_different_days_are_not_merged(run):
    run("lunch with Sarah Thursday")
    run("lunch with Sarah Thursday", at=MONDAY + timedelta(days=7), session_id="s2")
    assert active(type="event").count() == 2


def test_reconcile_never_reaches_another_users_memories(run):
    run("I live in Berlin", user_id="bob")
    trace = run("I live in Berlin", user_id="alice")
    assert trace.entries[0].outcome == "stored"
    assert active("bob").get().occurrences == 1


def test_a_break_up_and_a_new_partner_end_the_old_partner_edge(run):
    run("My girlfriend Emma loves hiking.")
    assert partner_edges() == {("Emma", "active")}
    run("Emma and I broke up last month.", session_id="s2", at=MONDAY + timedelta(days=40))
    assert not active(content="Emma is the user's girlfriend").exists()
    assert partner_edges() == {("Emma", "superseded")}
    run("I'm seeing someone new, her name is Sofia.", session_id="s3", at=MONDAY + timedelta(days=50))
    assert list(active(type="relation").values_list("content", flat=True)) == ["Sofia is the user's girlfriend"]
    assert partner_edges() == {("Emma", "superseded"), ("Sofia", "active")}
    run("Tom and Jane broke up.", session_id="s4", at=MONDAY + timedelta(days=51))  # not the user's
    assert partner_edges() == {("Emma", "superseded"), ("Sofia", "active")}


def partner_edges():
    return {(r.subject.canonical_name, r.status)
            for r in Relation.objects.filter(user_id="alice", predicate="partner_of").select_related("subject")}


def test_a_new_manager_ends_the_old_manager_edge(run):
    run("Sarah is my manager")
    run("I report to Karen now.", session_id="s2", at=MONDAY + timedelta(days=5))
    edges = {(r.subject.canonical_name, r.status) for r in Relation.objects.filter(predicate="manager_of")}
    assert edges == {("Sarah", "superseded"), ("Karen", "active")}


def test_a_promotion_and_a_taste_given_up_supersede_what_was_said_before(run):
    run("I got promoted to senior engineer today!", "I love sushi.")
    run("I'm a staff engineer now, got promoted again.", "I can't stand raw fish anymore, so no more sushi for me.",
        session_id="s2", at=MONDAY + timedelta(days=60))
    assert list(active(attribute="occupation").values_list("content", flat=True)) == ["Works as a staff engineer"]
    assert Memory.objects.get(content="Loves sushi").status == "superseded"
    assert active(content="Gave up sushi").exists() and active(content="Dislikes raw fish").exists()


def test_a_new_age_supersedes_the_old_one(run):
    run("I'm 34 years old.")
    run("I just turned 35!", session_id="s2", at=MONDAY + timedelta(days=100))
    assert list(active(attribute="age").values_list("content", flat=True)) == ["Is 35 years old"]


def test_a_new_preference_keeps_what_the_old_one_said_it_was_for(run):
    """"Actually I prefer aisle seats now" means on flights: without it, a question about a flight no longer
    finds the seat preference at all."""
    run("I prefer window seats on flights.")
    run("Actually I prefer aisle seats now because of my knee.", session_id="s2", at=MONDAY + timedelta(days=9))
    assert list(active(type="preference").values_list("content", flat=True)) == ["Prefers aisle seats on flights"]
    run("I prefer aisle seats in economy.", session_id="s3", at=MONDAY + timedelta(days=20))  # says it itself
    assert list(active(type="preference").values_list("content", flat=True)) == ["Prefers aisle seats in economy"]


def test_a_cancelled_event_is_superseded_by_its_cancellation(run):
    run("Dinner with Sarah on Saturday at 7pm at Nopa.", "Lunch with Sarah on Friday.")
    run("The dinner with Sarah is cancelled.", session_id="s2", at=MONDAY + timedelta(days=1))
    assert Memory.objects.get(content__startswith="Dinner with Sarah").status == "superseded"
    assert active(content="Lunch with Sarah on Friday.").exists()  # another kind of event, kept


def test_a_cancellation_naming_nobody_supersedes_the_latest_event_of_its_kinds_still_to_come(run):
    run("Dentist appointment on Friday at 3pm.", "Team meeting on Thursday at 10am.")
    run("The dentist called and cancelled my appointment.", session_id="s2", at=MONDAY + timedelta(days=1))
    assert Memory.objects.get(content__startswith="Dentist appointment").status == "superseded"
    assert active(content__startswith="Team meeting").exists()


def test_a_title_finished_supersedes_reading_it_but_not_another_title(run):
    run("I'm reading The Hobbit right now.", "Started watching Severance on Apple TV.")
    run("Finished The Hobbit! Starting The Fellowship of the Ring next.", session_id="s2",
        at=MONDAY + timedelta(days=12))
    assert Memory.objects.get(content__startswith="I'm reading The Hobbit").status == "superseded"
    assert active(content__startswith="Started watching Severance").exists()
