"""Memory quality on long user↔assistant conversations: BEAM (500K chats) evidence recall through the API,
default settings, beside raw-message baselines (BM25, MiniLM cosine, their fusion) on the same messages.

    .venv/bin/python bench/quality_beam.py [--data PATH] [--chats N] [--limit 20] [--keep|--reuse]
                                           [--baselines-only]

Data: BEAM ("Beyond a Million Tokens", github.com/mohammadtavakoli78/BEAM), the chats under `chats/500K/`
only — the other sizes (100K, 1M, 10M) are kept apart for independent measurement and this script never
reads them. `--data` is a BEAM checkout, the bare git directory the fetch tool brings
(/work/.mirror/mohammadtavakoli78+BEAM/repo, the default when present; or env RECALL_BEAM_DIR), or a
directory copied earlier. Nothing is downloaded: the chats asked for are copied from there into
`<var>/beam/500K/<n>/` (var/ or RECALL_VAR_DIR) and read from the copy. Never commit them.

Layout of `chats/500K/<n>/` (35 chats, numbered 1–35; files used: `chat.json`,
`probing_questions/probing_questions.json`):

- `chat.json`: a list of 10 batches `{"batch_number": 1.., "time_anchor": null, "turns": [...]}`; `turns` is
  a list of exchanges, each a list of messages `{"id": int, "role": "user"|"assistant", "content": str}`
  (user messages also carry `question_type` — main_question, followup_question, answer_ai_question — and
  sometimes `index`). The first message of each batch carries the batch's date, `"time_anchor":
  "January-05-2024"` (%B-%d-%Y); no other message does. Ids run 0..N-1 over the whole chat, user and
  assistant alternating. Chats 1, 2, 3: 796, 880, 772 messages (half of them the assistant's), 1.9M, 2.0M,
  1.8M characters; across the 35 chats 772–1,424 messages. Some exceed Recall's `max_content_chars`
  (8,000): those are cut to the limit (counted in the output).
- `probing_questions.json`: `{category: [question, ...]}`, 2 questions per category per chat, categories
  abstention, contradiction_resolution, event_ordering, information_extraction, instruction_following,
  knowledge_update, multi_session_reasoning, preference_following, summarization, temporal_reasoning.
  Each has `question` and `source_chat_ids`, the message ids holding the evidence: a list, or a dict of
  lists — `{"original_info", "updated_info"}` (knowledge_update), `{"first_statement",
  "second_statement"}` (contradiction_resolution), `{"first_event", "second_event"}` (temporal_reasoning).
  Abstention questions have none (skipped, as is one knowledge_update question of chat 1 without ids).

Protocol: one chat = one user (`beam-<n>`), one batch = one `session_id` (`batch_<k>`), every message
ingested with its role and its id (`source: "import"`, a batch per call), each batch dated by its
time_anchor with its messages a second apart, the whole timeline shifted so that the last batch ended
yesterday; embedding jobs inline (RECALL_Q_SYNC), as a worker keeping up would. Each question (all
categories but abstention) is searched with `include_all_domains` and `limit` (20); the `source_message_ids`
of the results, in rank order, give the distinct message ids ranked. Evidence recall@k (k 5, 10, 20) = share
of the question's evidence ids among the first k, per category and overall. Knowledge update: the share of
questions whose best-ranked `updated_info` message ranks above the best-ranked `original_info` one among the
first `limit` ids (one not there counts as ranked last; neither there is a miss); a question whose
`updated_info` ids are all `original_info` ids has no order to get right and is left out (said in the output).

Baselines, on the same messages and questions, every raw message a document ranked in full: BM25 (Okapi,
k1 1.5, b 0.75, words = lower-cased \\w+, no stop list; rank_bm25 is not installed), all-MiniLM-L6-v2 cosine
(Recall's own model and loader, `memories.embedding.embed_texts`, which reads the first 256 word pieces of a
message), and their reciprocal-rank fusion (k=60); the message vectors are kept beside the copied chat
(`minilm-<model>.npy`) for the next run. Also printed: Recall's ingest outcomes per role with the
rejection reasons counted, the share of evidence messages behind an active memory (per role), and results
returned per search. Runs in its own database (`bench_recall_beam`, created afresh and dropped unless
--keep); not part of `make test`.
"""
import argparse
import hashlib
import json
import logging
import math
import os
import re
import statistics
import subprocess
import time
from collections import Counter, defaultdict
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
import bench_path  # noqa: E402, F401 - first: the apps before this directory on sys.path

# quality_locomo sets the environment as both benches run (settings, offline model, one thread, inline jobs).
from quality_locomo import KS, api_client, recall_at, stored_turns, use_bench_database  # noqa: E402

BENCH_DB = "bench_recall_beam"
SIZE = "500K"  # the only size read: the others are kept apart for independent measurement
MIRROR = ROOT.parent / ".mirror" / "mohammadtavakoli78+BEAM" / "repo"
COPY = Path(os.environ.get("RECALL_VAR_DIR", ROOT / "var")) / "beam"
FILES = {"chat.json": "chat.json", "probing_questions.json": "probing_questions/probing_questions.json"}
DEFAULT_CHATS = 2
LIMIT = 20
BATCH = 200  # messages per ingest call (BEAM batches hold 70–150)
RRF_K = 60
SYSTEMS = ("Recall", "BM25", "MiniLM", "fusion")
_ANCHOR = "%B-%d-%Y"
WORD = re.compile(r"\w+")


# --- data -------------------------------------------------------------------------------------------------

def default_data() -> Path | None:
    for candidate in (os.environ.get("RECALL_BEAM_DIR"), MIRROR, COPY):
        if candidate and Path(candidate).exists():
            return Path(candidate)
    return None


def _git(source: Path, *args: str) -> bytes:
    return subprocess.run(["git", f"--git-dir={source}", *args], check=True, capture_output=True).stdout


def available_chats(source: Path) -> list[int]:
    """The 500K chat numbers at `source`: a checkout, a bare git directory or an earlier copy."""
    if (source / "chats" / SIZE).is_dir():
        names = [p.name for p in (source / "chats" / SIZE).iterdir()]
    elif (source / SIZE).is_dir():
        names = [p.name for p in (source / SIZE).iterdir()]
    else:
        names = [line.rsplit("/", 1)[-1] for line in
                 _git(source, "ls-tree", "--name-only", f"HEAD:chats/{SIZE}").decode().split()]
    return sorted(int(name) for name in names if name.isdigit())


def copy_chat(source: Path, number: int) -> Path:
    """`<var>/beam/500K/<n>/` with the chat's two files, copied from `source` unless already there."""
    target = COPY / SIZE / str(number)
    target.mkdir(parents=True, exist_ok=True)
    for name, relative in FILES.items():
        if (target / name).exists() or source.resolve() == COPY.resolve():
            continue
        if (source / "chats" / SIZE).is_dir():
            data = (source / "chats" / SIZE / str(number) / relative).read_bytes()
        elif (source / SIZE).is_dir():
            data = (source / SIZE / str(number) / name).read_bytes()
        else:
            data = _git(source, "show", f"HEAD:chats/{SIZE}/{number}/{relative}")
        (target / name).write_bytes(data)
    return target


def load_chat(folder: Path) -> tuple[list, dict]:
    return json.loads((folder / "chat.json").read_text()), json.loads((folder / "probing_questions.json").read_text())


def batches(chat: list[dict]) -> list[tuple[str, datetime, list[dict]]]:
    """(session id, the batch's date, its messages in order) per batch."""
    out = []
    for batch in sorted(chat, key=lambda b: b["batch_number"]):
        messages = [message for turn in batch["turns"] for message in turn]
        anchor = next(m["time_anchor"] for m in messages if m.get("time_anchor"))
        out.append((f"batch_{batch['batch_number']}",
                    datetime.strptime(anchor, _ANCHOR).replace(tzinfo=timezone.utc), messages))
    return out


def sessions(chat: list[dict], now: datetime, max_chars: int) -> list[tuple[str, list[dict]]]:
    """(session_id, ingest messages) per batch, dates moved so the last batch ended yesterday."""
    dated = batches(chat)
    _, last_date, last_messages = dated[-1]
    shift = (now - timedelta(days=1)) - (last_date + timedelta(seconds=len(last_messages)))
    return [(session_id, [{"role": m["role"], "id": str(m["id"]), "content": m["content"][:max_chars],
                           "timestamp": (date + shift + timedelta(seconds=index)).isoformat()}
                          for index, m in enumerate(messages)])
            for session_id, date, messages in dated]


def _ids(value) -> list[str]:
    if isinstance(value, dict):
        return [i for part in value.values() for i in _ids(part)]
    if isinstance(value, list):
        return [i for part in value for i in _ids(part)]
    return [] if value is None else [str(value)]


def questions(probing: dict) -> tuple[list[dict], int]:
    """(the questions with evidence, abstention excluded, how many others had no source_chat_ids)."""
    kept, skipped = [], 0
    for category, items in probing.items():
        if category == "abstention":
            continue
        for item in items:
            source = item.get("source_chat_ids")
            if not _ids(source):
                skipped += 1
                continue
            question = {"category": category, "question": item["question"], "evidence": sorted(set(_ids(source)))}
            if isinstance(source, dict) and {"original_info", "updated_info"} <= set(source):
                question["original"], question["updated"] = _ids(source["original_info"]), _ids(source["updated_info"])
            kept.append(question)
    return kept, skipped


# --- baselines over raw messages ----------------------------------------------------------------------------

def words(text: str) -> list[str]:
    return WORD.findall(text.lower())


class Okapi:
    """BM25 (Okapi) over tokenised documents; idf log(1 + (N - n + .5) / (n + .5)), never negative."""

    def __init__(self, documents: list[list[str]], k1: float = 1.5, b: float = 0.75):
        self.k1, self.b = k1, b
        self.freqs = [Counter(document) for document in documents]
        self.lengths = [len(document) for document in documents]
        self.average = sum(self.lengths) / max(len(documents), 1)
        found = Counter(word for freq in self.freqs for word in freq)
        self.idf = {word: math.log(1 + (len(documents) - n + 0.5) / (n + 0.5)) for word, n in found.items()}

    def scores(self, query: list[str]) -> list[float]:
        out = []
        for freq, length in zip(self.freqs, self.lengths):
            norm = self.k1 * (1 - self.b + self.b * length / self.average)
            out.append(sum(self.idf[w] * freq[w] * (self.k1 + 1) / (freq[w] + norm) for w in query if w in freq))
        return out


def ranked_ids(ids: list[str], scores) -> list[str]:
    return [ids[i] for i in sorted(range(len(ids)), key=lambda i: -scores[i])]


def fused(*rankings: list[str]) -> list[str]:
    score = defaultdict(float)
    for ranking in rankings:
        for rank, message_id in enumerate(ranking, start=1):
            score[message_id] += 1 / (RRF_K + rank)
    return sorted(score, key=lambda message_id: -score[message_id])


class Baselines:
    """Every raw message of one chat a document: BM25, MiniLM cosine and their fusion, each a full ranking."""

    def __init__(self, chat: list[dict], folder: Path):
        import numpy as np

        from memories.embedding import embed_texts, model_path

        messages = [m for _, _, batch in batches(chat) for m in batch]
        self.ids = [str(m["id"]) for m in messages]
        self.bm25 = Okapi([words(m["content"]) for m in messages])
        cached = folder / f"minilm-{hashlib.sha1(model_path().encode()).hexdigest()[:8]}.npy"
        if cached.exists():
            self.vectors = np.load(cached)
        else:  # a few minutes a chat on one thread: kept beside the copied chat
            self.vectors = np.array(embed_texts([m["content"] for m in messages]), dtype=np.float32)
            np.save(cached, self.vectors)

    def rankings(self, question: str) -> dict[str, list[str]]:
        import numpy as np

        from memories.embedding import embed_texts

        lexical = ranked_ids(self.ids, self.bm25.scores(words(question)))
        semantic = ranked_ids(self.ids, self.vectors @ np.array(embed_texts([question])[0], dtype=np.float32))
        return {"BM25": lexical, "MiniLM": semantic, "fusion": fused(lexical, semantic)}


# --- Recall through the API -----------------------------------------------------------------------------------

def ingest(client, user_id: str, chat: list, now: datetime, max_chars: int) -> Counter:
    """Ingest every batch as a session; (role, outcome, rejection reason) → messages, and expired memories."""
    trace = Counter()
    for session_id, messages in sessions(chat, now, max_chars):
        for start in range(0, len(messages), BATCH):
            response = client.post("/api/v1/ingest", {"user_id": user_id, "session_id": session_id, "source": "import",
                                                      "messages": messages[start:start + BATCH]}, format="json")
            assert response.status_code == 200, response.content[:2000]
            body = response.json()
            trace[("*", "expired_on_arrival", "")] += body["counts"].get("expired_on_arrival", 0)
            for entry in body["messages"]:
                reason = f"{entry['stage']}/{entry['reason']}" if entry["outcome"] == "rejected" else ""
                trace[(entry["role"], entry["outcome"], reason)] += 1
    return trace


def search(client, user_id: str, question: str, limit: int) -> tuple[list[str], int, float]:
    """(distinct source message ids in rank order, results returned, latency in ms)."""
    body = {"query": question, "scope": {"user_id": user_id}, "filters": {"include_all_domains": True},
            "limit": limit}
    began = time.perf_counter()
    response = client.post("/api/v1/search", body, format="json")
    elapsed = (time.perf_counter() - began) * 1000
    assert response.status_code == 200, response.content[:2000]
    results = response.json()["results"]
    ranked = []
    for hit in results:
        ranked += [source for source in hit.get("source_message_ids", []) if source not in ranked]
    return ranked, len(results), elapsed


# --- scoring and report -----------------------------------------------------------------------------------------

def updated_first(ranked: list[str], question: dict, limit: int) -> bool:
    """The best-ranked updated-info message ranks above the best-ranked original one (absent = last)."""
    position = {message_id: index for index, message_id in enumerate(ranked[:limit])}

    def best(ids):
        return min((position[i] for i in ids if i in position), default=math.inf)

    return best(question["updated"]) < best(question["original"])


class Scores:
    def __init__(self, systems: tuple[str, ...], limit: int):
        self.systems, self.limit = systems, limit
        self.recall = defaultdict(list)  # (system, category, k) → recalls
        self.ordering = defaultdict(list)  # system → updated ranked first, per knowledge-update question
        self.counts = Counter()  # category → questions
        self.same_message = 0  # knowledge-update questions whose updated_info ids are all original_info ids

    def add(self, question: dict, rankings: dict[str, list[str]]) -> None:
        self.counts[question["category"]] += 1
        for system in self.systems:
            for k in KS:
                value = recall_at(rankings[system], question["evidence"], k)
                self.recall[(system, question["category"], k)].append(value)
                self.recall[(system, "overall", k)].append(value)
            if "updated" in question and set(question["updated"]) - set(question["original"]):
                self.ordering[system].append(updated_first(rankings[system], question, self.limit))
        if "updated" in question and not set(question["updated"]) - set(question["original"]):
            self.same_message += 1  # its update is the original message itself: no order to get right

    def table(self) -> str:
        head = " | ".join(f"{system} R@{k}" for system in self.systems for k in KS)
        lines = [f"| category | questions | {head} |", "|---|---|" + "---|" * (len(self.systems) * len(KS))]
        for category in [*sorted(self.counts), "overall"]:
            count = self.counts[category] if category != "overall" else sum(self.counts.values())
            cells = " | ".join(f"{statistics.mean(self.recall[(system, category, k)]):.3f}"
                               for system in self.systems for k in KS)
            name = f"**{category}**" if category == "overall" else category
            lines.append(f"| {name} | {count} | {cells} |")
        if any(self.ordering.values()):
            shares = " | ".join(f"{sum(self.ordering[s])}/{len(self.ordering[s])} "
                                f"({sum(self.ordering[s]) / len(self.ordering[s]):.2f})" for s in self.systems)
            lines += ["", f"| knowledge update: updated above original, first {self.limit} ids | "
                      + " | ".join(self.systems) + " |", "|---|" + "---|" * len(self.systems), f"| | {shares} |"]
            if self.same_message:
                lines.append(f"\n({self.same_message} knowledge-update question(s) left out of the order: their "
                             "updated_info names only original_info messages)")
        return "\n".join(lines)


def trace_report(trace: Counter) -> list[str]:
    lines = []
    for role in ("user", "assistant"):
        outcomes, reasons = Counter(), Counter()
        for (speaker, outcome, reason), count in trace.items():
            if speaker == role:
                outcomes[outcome] += count
                reasons[reason] += count if reason else 0
        reasons = +reasons
        if outcomes:
            lines.append(f"{role} messages: {dict(outcomes.most_common())}")
            lines.append(f"  rejected by: {dict(reasons.most_common())}")
    lines.append(f"memories expired on arrival: {trace[('*', 'expired_on_arrival', '')]}")
    return lines


def evaluate(args, folders: list[Path]) -> None:
    from recall_site.config import recall_setting
    from recall_site.startup import warm_up

    recall_too = not args.baselines_only
    systems = SYSTEMS if recall_too else SYSTEMS[1:]
    scores, trace, latencies, returned = Scores(systems, args.limit), Counter(), [], []
    behind_evidence = Counter()  # (role, behind a memory?) → evidence messages
    now = datetime.now(timezone.utc)
    max_chars = recall_setting("input_limits.max_content_chars")
    user_ids = [f"beam-{folder.name}" for folder in folders]
    client = api_client(user_ids) if recall_too else None
    if recall_too:
        warm_up()
    for user_id, folder in zip(user_ids, folders):
        chat, probing = load_chat(folder)
        asked, skipped = questions(probing)
        messages = [m for _, _, batch in batches(chat) for m in batch]
        roles = Counter(m["role"] for m in messages)
        cut = sum(1 for m in messages if len(m["content"]) > max_chars)
        print(f"{user_id}: {len(messages)} messages ({dict(roles)}), {sum(len(m['content']) for m in messages)} "
              f"characters, {cut} cut to {max_chars}; {len(asked)} questions ({skipped} without evidence ids)",
              flush=True)
        began = time.perf_counter()
        baselines = Baselines(chat, folder)
        print(f"{user_id}: baselines indexed in {time.perf_counter() - began:.0f}s", flush=True)
        if recall_too and not args.reuse:
            began = time.perf_counter()
            counts = ingest(client, user_id, chat, now, max_chars)
            trace += counts
            print(f"{user_id}: ingested in {time.perf_counter() - began:.0f}s", flush=True)
            print("\n".join("  " + line for line in trace_report(counts)), flush=True)
        role_of = {str(m["id"]): m["role"] for m in messages}
        behind = stored_turns(user_id) if recall_too else set()
        for message_id in {e for q in asked for e in q["evidence"]}:
            behind_evidence[(role_of.get(message_id, "?"), message_id in behind)] += 1
        for question in asked:
            rankings = baselines.rankings(question["question"])
            if recall_too:
                rankings["Recall"], count, elapsed = search(client, user_id, question["question"], args.limit)
                latencies.append(elapsed)
                returned.append(count)
            scores.add(question, rankings)
    print()
    if trace:
        print("\n".join(trace_report(trace)))
    if recall_too:
        for role in ("user", "assistant"):
            kept, total = behind_evidence[(role, True)], behind_evidence[(role, True)] + behind_evidence[(role, False)]
            print(f"evidence messages of the {role}: {total}, behind an active memory: {kept}")
        latencies.sort()
        p95 = latencies[int(0.95 * (len(latencies) - 1))]
        print(f"results per search: mean {statistics.mean(returned):.1f} of limit {args.limit}, "
              f"fewer than the limit in {sum(1 for n in returned if n < args.limit)}/{len(returned)}; "
              f"search p50 {statistics.median(latencies):.1f} ms, p95 {p95:.1f} ms")
    print()
    print(scores.table())


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=default_data(),
                        help=f"a BEAM checkout, its bare git directory or an earlier copy (default: {MIRROR} "
                             f"if fetched, else env RECALL_BEAM_DIR, else {COPY})")
    parser.add_argument("--chats", type=int, default=DEFAULT_CHATS,
                        help=f"the first N chats of {SIZE} (default {DEFAULT_CHATS}: chats 1 and 2, 796 and 880 "
                             "messages, about 10 minutes on a 2-core host)")
    parser.add_argument("--limit", type=int, default=LIMIT, help=f"search limit (default {LIMIT})")
    parser.add_argument("--baselines-only", action="store_true", help="the raw-message baselines only, no database")
    parser.add_argument("--keep", action="store_true", help="keep the database for --reuse")
    parser.add_argument("--reuse", action="store_true", help="search the kept database again (no ingest)")
    args = parser.parse_args()
    if args.data is None or not args.data.exists():
        parser.error("no BEAM data: pass --data PATH to a BEAM checkout or its git directory (or set RECALL_BEAM_DIR)")
    numbers = available_chats(args.data)[:args.chats]
    if not numbers:
        parser.error(f"no chats/{SIZE}/<n>/ at {args.data}")
    folders = [copy_chat(args.data, number) for number in numbers]
    began = time.perf_counter()
    import django

    django.setup()
    logging.disable(logging.INFO)  # django-q reports every inline embedding job
    if args.baselines_only:
        evaluate(args, folders)
    else:
        from django.db import connection

        use_bench_database(reuse=args.reuse, name=BENCH_DB)
        try:
            evaluate(args, folders)
        finally:
            if not (args.keep or args.reuse):
                connection.creation.destroy_test_db(BENCH_DB, verbosity=0)
    print(f"\nchats {', '.join(map(str, numbers))} of {SIZE}; {time.perf_counter() - began:.0f}s in all")


if __name__ == "__main__":
    main()
