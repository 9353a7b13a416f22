"""Ingest benchmark: ≥ 5,000 generated messages through the 7-stage write pipeline.

Runs against a scratch database (`bench_recall_ingest`, created and dropped here)
with background embedding on (django-q2 jobs are enqueued, not run: embedding is
not counted). Prints messages/s and p50/p95 per-message latency for one message per
call (an assistant ingesting each turn) and throughput for session batches (an import).

    .venv/bin/python bench/ingest.py [--messages 5000] [--seed 7]
"""
import argparse
import os
import random
import statistics
import time
from datetime import datetime, timedelta, timezone

import bench_path  # noqa: E402, F401 - first: the apps before this directory on sys.path

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "recall_site.settings")
os.environ.setdefault("DEBUG", "false")  # as in production: no per-query debug recording
os.environ.setdefault("HF_HUB_OFFLINE", "1")

BENCH_DB = "bench_recall_ingest"
PEOPLE = ["Sarah", "Alex", "Priya", "Tom", "Emma", "Jonas", "Lena", "Marco", "Hannah", "Ben", "Mia", "David",
          "Sofia", "Liam", "Noah", "Olivia", "Yuki", "Omar", "Chloe", "Felix"]
SURNAMES = ["Chen", "Miller", "Patel", "Weber", "Rossi", "Kim", "Novak", "Garcia"]
PLACES = ["Berlin", "Munich", "Hamburg", "Lisbon", "Vienna", "Zurich", "Amsterdam", "Prague"]
ORGS = ["Volkswagen", "Siemens", "Acme Corp", "Spotify", "Zalando", "Bosch", "SAP"]
ROLES = ["manager", "sister", "brother", "partner", "roommate", "colleague", "best friend", "client", "cousin"]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
THINGS = ["morning meetings", "aisle seats", "short answers", "green tea", "email over Slack", "quiet cafes",
          "Italian food", "early flights", "jazz", "hiking", "spicy food", "working from home"]
RELEVANT = [
    "lunch with {p} {d}", "dinner with {p} on {d} at {h}pm", "I prefer {t}", "I love {t}", "I can't stand {t}",
    "just moved to {c}", "I live in {c}", "I work at {o}", "{p} is my {r}", "my {r} {p} is visiting next week",
    "{p} is {q}'s partner", "{p} {s} works at {o}", "moved my {d} 9am meeting", "coffee with my {r} tomorrow",
    "I'm allergic to {a}", "call with {p} next {d} at {h}am", "remember that {p}'s birthday is in {m}",
    "{p} is worried about the move to {c}", "flight to {c} on {d} morning", "quarterly review with {p} next {d}",
    "the user seemed stressed about {p}", "I had a long talk with {p} about {t}",
]
JUNK = ["ha that's funny", "ok done", "thanks!", "lol", "sounds good", "it's so rainy today", "got it, thanks",
        "did you know octopuses have three hearts?", "why did the chicken cross the road?", "hello",
        "“Stay hungry, stay foolish.” — Steve Jobs", "can you write an email to the landlord?",
        "what's the time in Tokyo?", "such a lovely day outside", "perfect, thank you"]
ALLERGENS = ["penicillin", "peanuts", "shellfish", "pollen", "latex"]
MONTHS = ["March", "May", "June", "September", "October"]


def generate(count: int, rng: random.Random) -> list[tuple[str, str, datetime]]:
    """(session_id, text, timestamp) for `count` user messages, 30 % junk, sessions of 20."""
    start = datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc)
    rows = []
    for index in range(count):
        if rng.random() < 0.3:
            text = rng.choice(JUNK)
        else:
            text = rng.choice(RELEVANT).format(
                p=rng.choice(PEOPLE), q=rng.choice(PEOPLE), s=rng.choice(SURNAMES), c=rng.choice(PLACES),
                o=rng.choice(ORGS), r=rng.choice(ROLES), d=rng.choice(DAYS), h=rng.randint(1, 11),
                t=rng.choice(THINGS), a=rng.choice(ALLERGENS), m=rng.choice(MONTHS),
            )
        session = index // 20
        rows.append((f"bench-{session}", text, start + timedelta(days=session, minutes=index % 20)))
    return rows


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


class ModelTimer:
    """Counts tag_domain's model calls (text without domain keywords) and the time they take."""

    def __init__(self):
        from ingest.pipeline import tag_domain

        self.calls, self.seconds = 0, 0.0
        tag_domain.embed_texts = self.timed(tag_domain.embed_texts)
        tag_domain.embed_query = self.timed(tag_domain.embed_query)  # one text

    def timed(self, embed):
        def call(*args, **kwargs):
            started = time.perf_counter()
            try:
                return embed(*args, **kwargs)
            finally:
                self.calls, self.seconds = self.calls + 1, self.seconds + time.perf_counter() - started
        return call

    def report(self) -> str:
        calls, seconds = self.calls, self.seconds
        self.calls, self.seconds = 0, 0.0
        return f"tag_domain model: {calls} calls, {seconds:.1f} s"


def run(rows, *, user_id: str, per_call: int):
    from ingest.pipeline import Message, run_pipeline

    latencies, outcomes = [], {}
    started = time.perf_counter()
    index = 0
    while index < len(rows):
        session_id = rows[index][0]
        batch = []
        while index < len(rows) and rows[index][0] == session_id and len(batch) < per_call:
            _, text, at = rows[index]
            batch.append(Message(content=text, timestamp=at, id=f"{user_id}-{index}"))
            index += 1
        call_started = time.perf_counter()
        trace = run_pipeline(user_id=user_id, session_id=session_id, messages=batch, source="import", actor="bench")
        latencies += [(time.perf_counter() - call_started) / len(batch)] * len(batch)
        for name, value in trace.counts.items():
            outcomes[name] = outcomes.get(name, 0) + value
    return time.perf_counter() - started, latencies, outcomes


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    import logging

    import django
    from django.conf import settings

    django.setup()
    logging.getLogger("django-q").setLevel(logging.WARNING)  # one "Enqueued" line per memory otherwise
    from django.db import connection

    connection.settings_dict["TEST"]["NAME"] = BENCH_DB
    settings.RECALL["memory_semantic"]["background_embedding_enabled"] = True
    # Connections are kept, as in production: the settings' pool (RECALL_DB_POOL_SIZE), else persistent ones;
    # without either django-q's ORM broker reconnects on every enqueue.
    if not connection.settings_dict["OPTIONS"].get("pool"):
        connection.settings_dict["CONN_MAX_AGE"] = 60
    import torch

    torch.set_num_threads(1)  # one intra-op thread: on 2 shared cores more threads only contend
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        from ingest.pipeline.tag_domain import domain_centroids

        domain_centroids()  # load the model and embed the centroids once, outside the timing
        timer = ModelTimer()
        rows = generate(args.messages, random.Random(args.seed))
        elapsed, latencies, outcomes = run(rows, user_id="bench-single", per_call=1)
        print(f"ingest, one message per call: {len(rows)} messages in {elapsed:.1f} s = "
              f"{len(rows) / elapsed:.0f} messages/s; per-message latency p50 {percentile(latencies, 0.5) * 1000:.1f} ms, "
              f"p95 {percentile(latencies, 0.95) * 1000:.1f} ms, mean {statistics.mean(latencies) * 1000:.1f} ms")
        print(f"  outcomes: {outcomes}; {timer.report()}")
        elapsed, latencies, outcomes = run(rows, user_id="bench-batch", per_call=20)
        print(f"ingest, 20-message session batches: {len(rows)} messages in {elapsed:.1f} s = "
              f"{len(rows) / elapsed:.0f} messages/s; per-message share of a batch p50 "
              f"{percentile(latencies, 0.5) * 1000:.1f} ms, p95 {percentile(latencies, 0.95) * 1000:.1f} ms; "
              f"{timer.report()}")
        from django_q.models import OrmQ

        from memories.models import Memory

        print(f"  memories written: {Memory.objects.count()}, embedding jobs queued (not run): {OrmQ.objects.count()}")
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
