"""Memory quality on real conversations: LoCoMo evidence recall through the API, default settings.

    make quality     # or: .venv/bin/python bench/quality_locomo.py [--data FILE] [--conversations N] [--batch N]
                     #                                           [--keep|--reuse]

The procedure of `../shared/data/README.md`: one conversation = one user, one
LoCoMo session = one `session_id`, each turn one ingested `user` message whose id
is its `dia_id`, content "<speaker>: <text>", timestamps shifted so that the last
session ended yesterday. Each question with evidence is searched (all domains,
limit 20) and the `source_message_ids` of the results, in rank order, are
scored: evidence recall@k = share of the question's evidence ids among the first
k distinct source ids. Printed per category (1 multi-hop, 2 temporal, 3
open-domain, 4 single-hop) and overall, with extraction coverage (share of the
turns a gold observation cites that yielded a memory), extraction precision
(share of the turns behind stored memories that gold cites, in an observation
or as question evidence) and search p50/p95. Beside recall it scores the entity
graph each conversation built against the hand-made labels in bench/graph_labels/
(bench/graph_quality.py: entity precision, recall of recurring entities, kind
accuracy, relation recall, edge precision), per conversation and overall.

Runs in its own database (`bench_recall_locomo`, created afresh and dropped),
with Recall's default configuration; embedding jobs run inline (RECALL_Q_SYNC),
as a worker keeping up would. Takes a few minutes; not part of `make test`.
"""
import argparse
import json
import logging
import os
import re
import statistics
import time
from collections import Counter, defaultdict
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
import bench_path  # noqa: E402, F401 - first: the apps before this directory on sys.path

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "recall_site.settings")
os.environ.setdefault("DEBUG", "false")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ["RECALL_Q_SYNC"] = "true"  # embedding jobs run in the ingest request, as a keeping-up worker would

BENCH_DB = "bench_recall_locomo"
DEFAULT_DATA = ROOT.parent / "shared" / "data" / "locomo-dev.json"
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
KS = (5, 10, 20)
BATCH = 200
_DATE = "%I:%M %p on %d %B, %Y"


def session_dates(conversation: dict) -> dict[int, datetime]:
    """Session number → its (naive, read as UTC) start time, e.g. '1:56 pm on 8 May, 2023'."""
    dates = {}
    for key, value in conversation.items():
        if match := re.fullmatch(r"session_(\d+)_date_time", key):
            dates[int(match.group(1))] = datetime.strptime(value.strip(), _DATE).replace(tzinfo=timezone.utc)
    return dates


def sessions(conversation: dict, now: datetime) -> list[tuple[str, list[dict]]]:
    """(session_id, ingest messages) per session, dates moved so the last session ended yesterday."""
    dates = session_dates(conversation)
    numbers = sorted(n for n in dates if conversation.get(f"session_{n}"))
    last = numbers[-1]
    last_end = dates[last] + timedelta(seconds=len(conversation[f"session_{last}"]))
    shift = (now - timedelta(days=1)) - last_end
    out = []
    for number in numbers:
        turns = conversation[f"session_{number}"]
        messages = [{"role": "user", "id": turn["dia_id"], "content": f"{turn['speaker']}: {turn['text']}",
                     "timestamp": (dates[number] + shift + timedelta(seconds=index)).isoformat()}
                    for index, turn in enumerate(turns)]
        out.append((f"session_{number}", messages))
    return out


def evidence_ids(raw: list[str]) -> list[str]:
    """Normalise LoCoMo's evidence quirks ('D8:6; D9:17', 'D30:05') into dia ids."""
    found = []
    for item in raw:
        for part in re.split(r"[;,\s]+", item):
            if match := re.fullmatch(r"D(\d+):(\d+)", part.strip()):
                found.append(f"D{int(match.group(1))}:{int(match.group(2))}")
    return found


def use_bench_database(*, reuse: bool, name: str = BENCH_DB):
    from django.conf import settings
    from django.db import connection

    settings.DATABASES["default"]["TEST"]["NAME"] = name
    connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False, keepdb=reuse)


def api_client(user_ids: list[str]):
    from django.contrib.auth.models import User
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    from access.models import UserIdGrant

    account, _ = User.objects.get_or_create(username="bench-locomo")
    for user_id in user_ids:
        UserIdGrant.objects.get_or_create(account=account, user_id=user_id)
    token, _ = Token.objects.get_or_create(user=account)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def ingest(client, user_id: str, conversation: dict, now: datetime, batch: int) -> dict:
    """Ingest every session, `batch` turns per call; returns the outcome counts summed over the traces."""
    counts = defaultdict(int)
    for session_id, messages in sessions(conversation, now):
        for start in range(0, len(messages), batch):
            response = client.post("/api/v1/ingest", {"user_id": user_id, "session_id": session_id,
                                                      "messages": messages[start:start + batch]}, format="json")
            assert response.status_code == 200, response.content
            for outcome, count in response.json()["counts"].items():
                counts[outcome] += count
    return counts


def stored_turns(user_id: str) -> set[str]:
    """The dia ids behind the user's active memories."""
    from memories.models import Memory, Status

    turns = set()
    for ids in Memory.objects.filter(user_id=user_id, status=Status.ACTIVE).values_list("source_message_ids",
                                                                                         flat=True):
        turns.update(ids)
    return turns


def search(client, user_id: str, question: str) -> tuple[list[str], float]:
    """(distinct source message ids in rank order, latency in ms)."""
    body = {"query": question, "scope": {"user_id": user_id}, "filters": {"include_all_domains": True},
            "limit": 20}
    began = time.perf_counter()
    response = client.post("/api/v1/search", body, format="json")
    elapsed = (time.perf_counter() - began) * 1000
    assert response.status_code == 200, response.content
    ranked = []
    for hit in response.json()["results"]:
        for source in hit.get("source_message_ids", []):
            if source not in ranked:
                ranked.append(source)
    return ranked, elapsed


def recall_at(ranked: list[str], evidence: list[str], k: int) -> float:
    top = set(ranked[:k])
    return sum(1 for e in evidence if e in top) / len(evidence)


def evaluate(conversations: list[dict], *, reuse: bool, batch: int = BATCH, questions_too: bool = True,
             graph_details_too: bool = False) -> None:
    from graph_quality import graph_details, graph_scores, graph_snapshot, load_labels, ratios
    from recall_site.startup import warm_up

    now = datetime.now(timezone.utc)
    user_ids = [f"locomo-{index}" for index in range(len(conversations))]
    client = api_client(user_ids)
    warm_up()
    scores = defaultdict(lambda: defaultdict(list))  # category → k → recalls
    latencies, cited_turns, gold_turns, memory_turns = [], set(), set(), set()
    totals, graph_totals = defaultdict(int), Counter()
    for index, (user_id, sample) in enumerate(zip(user_ids, conversations)):
        if not reuse:
            began = time.perf_counter()
            counts = ingest(client, user_id, sample["conversation"], now, batch)
            for outcome, count in counts.items():
                totals[outcome] += count
            print(f"{user_id}: ingested in {time.perf_counter() - began:.0f}s {dict(counts)}", flush=True)
        if labels := load_labels(index):
            snapshot = graph_snapshot(user_id)
            counts = graph_scores(labels, *snapshot)
            graph_totals += counts
            print(f"{user_id} graph: " + ", ".join(f"{k} {v:.3f}" for k, v in ratios(counts).items())
                  + f" ({counts['entities']} entities, {counts['edges']} edges)", flush=True)
            if graph_details_too:
                print("\n".join(graph_details(labels, *snapshot)))
        if not questions_too:
            continue
        observed = {dia for facts in sample["observation"].values() for pairs in facts.values()
                    for _, dias in pairs for dia in evidence_ids([dias] if isinstance(dias, str) else dias)}
        questions = [q for q in sample["qa"] if q.get("category") in CATEGORIES and evidence_ids(q["evidence"])]
        cited = observed | {e for q in questions for e in evidence_ids(q["evidence"])}
        behind = stored_turns(user_id)
        cited_turns |= {f"{user_id}/{d}" for d in observed}
        gold_turns |= {f"{user_id}/{d}" for d in cited}
        memory_turns |= {f"{user_id}/{d}" for d in behind}
        for question in questions:
            evidence = sorted(set(evidence_ids(question["evidence"])))
            ranked, elapsed = search(client, user_id, question["question"])
            latencies.append(elapsed)
            for k in KS:
                scores[question["category"]][k].append(recall_at(ranked, evidence, k))
                scores["all"][k].append(recall_at(ranked, evidence, k))
    if graph_totals:
        print("graph, all labelled conversations: " + ", ".join(f"{k} {v:.3f}" for k, v in ratios(graph_totals).items())
              + f" ({graph_totals['entities']} entities, {graph_totals['edges']} edges)")
    if questions_too:
        report(scores, latencies, cited_turns, gold_turns, memory_turns, totals)


def report(scores, latencies, cited_turns, gold_turns, memory_turns, totals) -> None:
    print(f"\ningest outcomes: {dict(totals)}")
    print("| category | questions | R@5 | R@10 | R@20 |")
    print("|---|---|---|---|---|")
    for category in [*CATEGORIES, "all"]:
        row = scores[category]
        name = CATEGORIES.get(category, "overall (1-4)")
        print(f"| {name} | {len(row[5])} | " + " | ".join(f"{statistics.mean(row[k]):.3f}" for k in KS) + " |")
    coverage = len(cited_turns & memory_turns) / max(len(cited_turns), 1)
    precision = len(memory_turns & gold_turns) / max(len(memory_turns), 1)
    print(f"extraction coverage {coverage:.3f} ({len(cited_turns & memory_turns)}/{len(cited_turns)} observed turns)"
          f", precision {precision:.3f} ({len(memory_turns & gold_turns)}/{len(memory_turns)} turns behind memories)")
    latencies.sort()
    print(f"search p50 {statistics.median(latencies):.1f} ms, p95 {latencies[int(0.95 * (len(latencies) - 1))]:.1f} ms"
          f" over {len(latencies)} questions")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--conversations", type=int, default=None, help="only the first N conversations")
    parser.add_argument("--batch", type=int, default=BATCH,
                        help=f"turns per ingest call (default {BATCH}: a session at a time; 1: each turn as it happens)")
    parser.add_argument("--graph-only", action="store_true", help="score the graph only, no questions")
    parser.add_argument("--graph-details", action="store_true",
                        help="list the entities that match no label, wrong kinds and unlabelled edges")
    parser.add_argument("--keep", action="store_true", help="keep the database for --reuse")
    parser.add_argument("--reuse", action="store_true", help="search the kept database again (no ingest)")
    args = parser.parse_args()
    if not args.data.exists():
        parser.error(f"no conversations at {args.data}: pass --data PATH to a LoCoMo-format JSON file")
    conversations = json.loads(args.data.read_text())[:args.conversations]
    import django

    django.setup()
    logging.disable(logging.INFO)  # django-q reports every inline embedding job
    from django.db import connection

    use_bench_database(reuse=args.reuse)
    try:
        evaluate(conversations, reuse=args.reuse, batch=args.batch, questions_too=not args.graph_only,
                 graph_details_too=args.graph_details)
    finally:
        if not (args.keep or args.reuse):
            connection.creation.destroy_test_db(BENCH_DB, verbosity=0)


if __name__ == "__main__":
    main()
