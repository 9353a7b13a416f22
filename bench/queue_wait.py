"""Queue fairness: how long a small background ingest job ("wait": false) of one user waits while another
user's large synchronous import runs, through a real `manage.py serve` (bench/served.py).

    .venv/bin/python bench/queue_wait.py [--messages 3000] [--batch 200]

User `importer` sends `--messages` turns in calls of `--batch` ("wait": true: each call runs the pipeline
and enqueues one embedding batch); meanwhile user `small` sends a one-message job every 2 s and polls it
until done. Prints the small jobs' wait from request to done (p50/p95/max) and the import's throughput.
Runs in its own database (bench_recall_queue, created afresh and dropped).
"""
import argparse
import json
import os
import statistics
import threading
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
import bench_path  # noqa: E402, F401 - first: the apps before this directory on sys.path

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "recall_site.settings")
os.environ.setdefault("DEBUG", "false")

BENCH_DB = "bench_recall_queue"
TOPICS = ["my sister Emma visited Lisbon", "the budget review moved to Friday", "I started learning the cello",
          "lunch with Priya at the Thai place", "my knee hurts after the long run", "we booked flights to Oslo"]


def turns(count: int) -> list[dict]:
    start = datetime.now(timezone.utc) - timedelta(days=2)
    return [{"role": "user", "content": f"{TOPICS[i % len(TOPICS)]} (note {i})",
             "timestamp": (start + timedelta(seconds=i)).isoformat(), "id": f"imp-{i}"} for i in range(count)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=3000)
    parser.add_argument("--batch", type=int, default=200)
    args = parser.parse_args()
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.db import connection
    from rest_framework.authtoken.models import Token

    from access.models import UserIdGrant
    from served import serving, timed_requests

    connection.settings_dict["TEST"]["NAME"] = BENCH_DB
    connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        account = User.objects.create(username="bench-queue")
        for user_id in ("importer", "small"):
            UserIdGrant.objects.create(account=account, user_id=user_id)
        token = Token.objects.create(user=account).key
        connection.close()
        with serving(connection.settings_dict) as port:
            waits, done = [], threading.Event()

            def small_jobs():
                n = 0
                while not done.is_set():
                    n += 1
                    body = {"user_id": "small", "session_id": f"s{n}", "wait": False, "messages": [
                        {"role": "user", "content": f"I moved my dentist appointment to Thursday ({n})"}]}
                    began = time.perf_counter()
                    job = _post(port, token, body)["job_id"]
                    while True:
                        status = _get(port, token, f"/api/v1/ingest/{job}?user_id=small")["status"]
                        if status in ("done", "failed"):
                            waits.append(time.perf_counter() - began)
                            break
                        time.sleep(0.1)
                    time.sleep(2)

            poller = threading.Thread(target=small_jobs)
            poller.start()
            messages, began = turns(args.messages), time.perf_counter()
            for start in range(0, len(messages), args.batch):
                body = {"user_id": "importer", "session_id": f"import-{start // 1000}", "source": "import",
                        "messages": messages[start:start + args.batch]}
                assert timed_requests(port, "POST", "/api/v1/ingest", [body], token=token)[0][0] == 200
            elapsed = time.perf_counter() - began
            done.set()
            poller.join()
        print("small jobs' waits in order (s): " + " ".join(f"{wait:.2f}" for wait in waits))
        waits.sort()
        print(f"import: {args.messages} messages in {elapsed:.1f}s ({args.messages / elapsed:.0f}/s), "
              f"calls of {args.batch}")
        print(f"small background jobs meanwhile: {len(waits)}, wait from request to done p50 "
              f"{statistics.median(waits):.2f}s, p95 {waits[int(0.95 * (len(waits) - 1))]:.2f}s, max {waits[-1]:.2f}s")
    finally:
        connection.creation.destroy_test_db(BENCH_DB, verbosity=0)


def _post(port: int, token: str, body: dict) -> dict:
    return _json(port, token, "POST", "/api/v1/ingest", body)


def _get(port: int, token: str, path: str) -> dict:
    return _json(port, token, "GET", path, None)


def _json(port: int, token: str, method: str, path: str, body) -> dict:
    import http.client

    client = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        client.request(method, path, body=None if body is None else json.dumps(body),
                       headers={"Content-Type": "application/json", "Authorization": f"Token {token}"})
        return json.loads(client.getresponse().read())
    finally:
        client.close()


if __name__ == "__main__":
    main()
