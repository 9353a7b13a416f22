"""The LLM extractor against a fake OpenAI-compatible server on 127.0.0.1, and its fallback to rules."""
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from ingest.pipeline.extract import candidates_for
from memories.models import Memory
from tests.pipeline.conftest import message


class FakeChatCompletions(BaseHTTPRequestHandler):
    """Answers /v1/chat/completions with whatever the test queued in `server.reply`."""

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append({"path": self.path, "auth": self.headers.get("Authorization"), "body": body})
        status, content, delay = self.server.reply
        time.sleep(delay)
        payload = json.dumps({"choices": [{"message": {"role": "assistant", "content": content}}]}).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client timed out first, which is what the timeout test wants

    def log_message(self, *args):
        pass


@pytest.fixture
def llm_server(recall_config):
    server = ThreadingHTTPServer(("127.0.0.1", 0), FakeChatCompletions)
    server.daemon_threads = True
    server.requests, server.reply = [], (200, json.dumps({"memories": []}), 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    recall_config({"memory": {
        "extractor": "llm", "llm_base_url": f"http://127.0.0.1:{server.server_address[1]}/v1",
        "llm_model": "tiny-test-model", "llm_api_key": "sk-test", "llm_timeout_seconds": 0.5,
    }})
    yield server
    server.shutdown()
    server.server_close()


def answer(*memories):
    return 200, json.dumps({"memories": list(memories)}), 0


def test_llm_candidates_are_typed_with_confidences_from_config(llm_server):
    llm_server.reply = answer(
        {"type": "preference", "content": "prefers morning meetings", "entities": []},
        {"type": "event", "content": "lunch with Sarah", "when": "Thursday",
         "entities": [{"name": "Sarah", "kind": "person"}]},
        {"type": "fact", "content": "user seems stressed", "inferred": True},
    )
    pref, event, inferred = candidates_for(message("I prefer morning meetings; lunch with Sarah Thursday"))
    request = llm_server.requests[0]
    assert request["path"] == "/v1/chat/completions" and request["auth"] == "Bearer sk-test"
    assert request["body"]["model"] == "tiny-test-model"
    assert request["body"]["response_format"]["type"] == "json_schema"
    assert (pref.type, pref.content, pref.confidence, pref.details["extractor"]) == (
        "preference", "Prefers morning meetings", 0.65, "llm")
    assert event.valid_from.day == 3 and [m.text for m in event.mentions] == ["Sarah"]
    # An inference the model calls a fact is still never a fact.
    assert (inferred.type, inferred.confidence, inferred.needs_review) == ("preference", 0.2, True)


def test_llm_relation_uses_the_user_entity(run, llm_server):
    llm_server.reply = answer({"type": "relation", "content": "Sarah is the user's manager",
                               "entities": [{"name": "Sarah", "kind": "person"}],
                               "relation": {"subject": "Sarah", "predicate": "manager_of", "object": "user"}})
    trace = run("Sarah is my manager")
    memory = Memory.objects.get(pk=trace.memory_ids[0])
    assert memory.details["extractor"] == "llm"
    sarah = memory.entities.get(kind="person")
    assert sarah.relations_out.get().predicate == "manager_of"
    assert sarah.relations_out.get().object.kind == "self"


@pytest.mark.parametrize("reply", [
    (200, "this is not json", 0),
    (500, json.dumps({"error": "overloaded"}), 0),
    (200, json.dumps({"memories": [{"type": "gossip", "content": "x"}]}), 0),
    (200, json.dumps({"memories": []}), 2.0),  # slower than the 0.5 s timeout
])
def test_any_llm_failure_falls_back_to_the_rules(llm_server, reply):
    llm_server.reply = reply
    started = time.monotonic()
    [pref] = candidates_for(message("I prefer morning meetings"))
    assert time.monotonic() - started < 1.5
    assert (pref.content, pref.details["extractor"]) == ("Prefers morning meetings", "rules")
    assert len(llm_server.requests) == 1


def test_an_unreachable_endpoint_falls_back_to_the_rules(recall_config):
    recall_config({"memory": {"extractor": "llm", "llm_base_url": "http://127.0.0.1:9", "llm_timeout_seconds": 0.5}})
    [fact] = candidates_for(message("I work at Volkswagen"))
    assert (fact.content, fact.details["extractor"]) == ("Works at Volkswagen", "rules")
