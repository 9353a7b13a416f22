"""The LLM extractor: any OpenAI-compatible `/v1/chat/completions` endpoint (Ollama, vLLM, OpenAI).

Configured by `memory.llm_base_url`, `memory.llm_model`, `memory.llm_api_key` and
`memory.llm_timeout_seconds`. The model is asked for JSON matching `OUTPUT_SCHEMA`;
anything else (timeout, HTTP error, malformed JSON, unknown type) raises
`LLMExtractionError` and the extract stage falls back to the rules. Confidences
are never taken from the model: they come from config by type, and anything the
model marks as inferred becomes a preference candidate at inference confidence.
"""
import json
import urllib.request
from datetime import datetime

from ingest.pipeline.base import (
    Candidate,
    Mention,
    Message,
    RelationSpec,
    as_said,
    default_confidence,
    default_importance,
    first_person,
)
from ingest.pipeline.dates import resolve_when
from ingest.pipeline.rule_forms import BIOGRAPHICAL
from recall_site.config import recall_setting

TYPES = ("fact", "preference", "event", "relation")
KINDS = ("person", "pet", "org", "place", "thing")
OUTPUT_SCHEMA = {
    "type": "object",
    "properties": {"memories": {"type": "array", "items": {
        "type": "object",
        "properties": {
            "type": {"type": "string", "enum": list(TYPES)},
            "content": {"type": "string"},
            "inferred": {"type": "boolean"},
            "attribute": {"type": "string"},
            "when": {"type": "string"},
            "entities": {"type": "array", "items": {"type": "object", "properties": {
                "name": {"type": "string"}, "kind": {"type": "string", "enum": list(KINDS)}},
                "required": ["name", "kind"]}},
            "relation": {"type": "object", "properties": {
                "subject": {"type": "string"}, "predicate": {"type": "string"}, "object": {"type": "string"}},
                "required": ["subject", "predicate", "object"]},
        },
        "required": ["type", "content"],
    }}},
    "required": ["memories"],
}
SYSTEM_PROMPT = (
    "You extract durable memories about the user from one message they wrote to their assistant. "
    "Return JSON {\"memories\": [...]} matching the schema. Types: fact (biographical, stated), preference, "
    "event (time-anchored; put the time phrase in `when`), relation (person —predicate→ person, use 'user' "
    "for the user; predicates like partner_of, manager_of, sibling_of, works_at). Write content in third "
    "person without the subject ('prefers morning meetings'). Set attribute for single-valued facts "
    "(residence, employer, diet, name, birthday). Set inferred=true for anything guessed rather than said. "
    "Return {\"memories\": []} if nothing is worth remembering."
)


class LLMExtractionError(Exception):
    pass


def llm_candidates(message: Message) -> list[Candidate]:
    """Ask the configured endpoint; raise LLMExtractionError on any failure."""
    try:
        payload = _post(_request_body(message))
        items = json.loads(payload["choices"][0]["message"]["content"])["memories"]
        return [_candidate(item, message) for item in items]
    except LLMExtractionError:
        raise
    except Exception as error:  # noqa: BLE001 - network, HTTP, JSON and shape errors all mean "fall back"
        raise LLMExtractionError(f"{type(error).__name__}: {error}") from error


def _request_body(message: Message) -> dict:
    return {
        "model": recall_setting("memory.llm_model"),
        "temperature": 0,
        "messages": [
            {"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user",
             "content": f"Sent at {message.timestamp.isoformat()}:\n{as_said(message, message.content)}"},
        ],
        "response_format": {"type": "json_schema",
                            "json_schema": {"name": "memories", "schema": OUTPUT_SCHEMA}},
    }


def _post(body: dict) -> dict:
    base_url = recall_setting("memory.llm_base_url").rstrip("/")
    if not base_url:
        raise LLMExtractionError("memory.llm_base_url is not set")
    url = base_url + ("/chat/completions" if base_url.endswith("/v1") else "/v1/chat/completions")
    headers = {"Content-Type": "application/json"}
    if key := recall_setting("memory.llm_api_key"):
        headers["Authorization"] = f"Bearer {key}"
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers, method="POST")
    with urllib.request.urlopen(request, timeout=recall_setting("memory.llm_timeout_seconds")) as response:
        return json.load(response)


def _candidate(item: dict, message: Message) -> Candidate:
    kind, content = item["type"], str(item["content"]).strip()
    if kind not in TYPES or not content:
        raise LLMExtractionError(f"unusable memory type {kind!r}")
    me = first_person(message)
    mentions = [Mention(str(e["name"]), kind=e["kind"] if e.get("kind") in KINDS else "person")
                for e in item.get("entities") or []]
    if item.get("inferred"):
        return Candidate(type="preference", content=content, confidence=recall_setting("memory.inference_confidence"),
                         importance=default_importance("inferred"), mentions=[me], needs_review=True,
                         review_reason="inferred", details={"inferred": True, "extractor": "llm"})
    attribute = str(item.get("attribute") or "")[:64]
    candidate = Candidate(
        type=kind, content=content[:1].upper() + content[1:], confidence=default_confidence(kind),
        importance=default_importance(kind), mentions=mentions, attribute=attribute,
        details={"extractor": "llm"},
    )
    if kind in ("fact", "preference"):
        candidate.mentions.insert(0, me)
        candidate.subject = me if attribute else None
        if attribute in BIOGRAPHICAL:
            candidate.half_life_days = recall_setting("decay.biographical_fact_half_life_days")
    if item.get("when"):
        candidate.valid_from = _when(str(item["when"]), message.timestamp)
    if relation := item.get("relation"):
        candidate.relation = _relation(relation, candidate, me)
    return candidate


def _relation(relation: dict, candidate: Candidate, me: Mention) -> RelationSpec:
    def side(name: str, role: str) -> Mention:
        if name.strip().lower() in ("user", "the user", "me"):
            me.role = role
            if me not in candidate.mentions:
                candidate.mentions.append(me)
            return me
        found = next((m for m in candidate.mentions if m.text.lower() == name.strip().lower()), None)
        if not found:
            found = Mention(name.strip())
            candidate.mentions.append(found)
        found.role = role
        return found

    spec = RelationSpec(side(relation["subject"], "subject"), str(relation["predicate"])[:64],
                        side(relation["object"], "object"))
    candidate.subject = candidate.subject or spec.subject
    return spec


def _when(text: str, base: datetime):
    try:
        parsed = datetime.fromisoformat(text)
        return parsed if parsed.tzinfo else parsed.replace(tzinfo=base.tzinfo)
    except ValueError:
        return resolve_when(text, base).at
