"""POST /api/v1/ingest: the trace, user scoping, bad input and the auto-reflection gates."""
from audit.models import AuditEvent
from entities.models import Entity
from memories.models import Memory

URL = "/api/v1/ingest"


def post(api, *contents, user_id="alice", source="auto_reflection", role="user", **extra):
    messages = [{"role": role, "content": text, "timestamp": "2026-11-30T10:00:00Z", "id": f"m{i}"}
                for i, text in enumerate(contents)]
    return api.post(URL, {"user_id": user_id, "session_id": "chat-1", "source": source, "messages": messages} | extra,
                    format="json")


def test_ingest_returns_a_trace_per_message(alice_api):
    response = post(alice_api, "ok done", "I work at Volkswagen", "lunch with Sarah Thursday", source="import")
    assert response.status_code == 200, response.content
    body = response.json()
    assert [m["message_id"] for m in body["messages"]] == ["m0", "m1", "m2"]
    assert [m["outcome"] for m in body["messages"]] == ["rejected", "stored", "stored"]
    assert body["messages"][0]["stage"] == "pre_filter"
    assert body["counts"] == {"superseded": 0, "stored": 2, "reinforced": 0, "sent_to_review": 0, "rejected": 1,
                              "expired_on_arrival": 0}
    event = Memory.objects.get(content="Lunch with Sarah Thursday")
    assert (event.user_id, event.session_id, event.source, event.source_message_ids) == ("alice", "chat-1", "import", ["m2"])
    assert event.valid_from.date().isoformat() == "2026-12-03"
    audit = AuditEvent.objects.get(action="ingest")
    assert audit.counts["messages"] == 3 and "Volkswagen" not in str(audit.target_ids)


def test_an_assistant_message_is_never_a_preference_of_the_users(alice_api):
    body = post(alice_api, "I prefer morning meetings", role="assistant").json()
    assert body["messages"][0]["outcome"] == "rejected"
    assert not Memory.objects.exists()


def test_auto_memory_needs_confirmation_by_default(alice_api):
    body = post(alice_api, "I prefer morning meetings").json()
    assert body["messages"][0]["outcome"] == "sent_to_review"
    memory = Memory.objects.get()
    assert (memory.source, memory.needs_review, memory.review_reason) == ("auto_reflection", True, "auto_memory")


def test_auto_memory_without_confirmation_is_stored_directly(alice_api, recall_config):
    recall_config({"memory": {"require_confirmation_for_auto_memory": False}})
    assert post(alice_api, "I prefer morning meetings").json()["messages"][0]["outcome"] == "stored"
    assert Memory.objects.get().needs_review is False


def test_auto_memory_disabled_stores_nothing_and_says_why(alice_api, recall_config):
    recall_config({"memory": {"auto_memory_enabled": False}})
    body = post(alice_api, "I prefer morning meetings", "I work at Volkswagen").json()
    assert {(m["outcome"], m["reason"]) for m in body["messages"]} == {("rejected", "auto_memory_disabled")}
    assert not Memory.objects.exists() and not Entity.objects.exists()
    # Other sources are not gated by the auto-memory switch.
    assert post(alice_api, "I work at Volkswagen", source="import").json()["counts"]["stored"] == 1


def test_auto_memory_min_confidence_rejects_weak_candidates(alice_api, recall_config):
    recall_config({"memory": {"auto_memory_min_confidence": 0.7}})
    body = post(alice_api, "I prefer morning meetings", "I work at Volkswagen").json()
    pref, fact = body["messages"]
    assert (pref["outcome"], pref["reason"]) == ("rejected", "below_auto_memory_min_confidence")
    assert fact["outcome"] == "sent_to_review"
    assert list(Memory.objects.values_list("content", flat=True)) == ["Works at Volkswagen"]


def test_high_importance_auto_memories_are_pinned_and_held_for_review(alice_api, recall_config):
    recall_config({"memory": {"require_confirmation_for_auto_memory": False}})
    post(alice_api, "I'm allergic to penicillin")
    memory = Memory.objects.get()
    assert (memory.pinned, memory.needs_review, memory.review_reason) == (True, True, "auto_pinned")


def test_auto_pin_without_review(alice_api, recall_config):
    recall_config({"memory": {"require_confirmation_for_auto_memory": False, "auto_pin_requires_review": False,
                              "auto_pin_min_importance": 0.6}})
    post(alice_api, "I'm allergic to penicillin", "lunch with Sarah Thursday")
    pinned = dict(Memory.objects.values_list("content", "pinned"))
    assert pinned == {"Allergic to penicillin": True, "Lunch with Sarah Thursday": False}
    assert not Memory.objects.filter(needs_review=True).exists()


def test_another_users_id_is_403_and_nothing_is_written(alice_api, bob):
    response = post(alice_api, "I work at Volkswagen", user_id="bob", source="import")
    assert response.status_code == 403 and "bob" in response.json()["message"]
    assert not Memory.objects.exists() and not Entity.objects.exists()
    assert not AuditEvent.objects.filter(action="ingest").exists()


def test_staff_may_ingest_for_any_user(staff_api):
    assert post(staff_api, "I work at Volkswagen", user_id="bob", source="import").status_code == 200
    assert Memory.objects.get().user_id == "bob"


def test_bad_input_is_400_json_and_writes_nothing(alice_api):
    cases = [
        ({"messages": []}, "messages"),
        ({"messages": [{"role": "user"}]}, "messages"),
        ({"messages": [{"role": "robot", "content": "hi"}]}, "messages"),
        ({"source": "inferred"}, "source"),
        ({"session_id": ""}, "session_id"),
        ({"messages": [{"role": "user", "content": "I work at VW", "timestamp": "yesterday-ish"}]}, "messages"),
    ]
    for override, field in cases:
        body = {"user_id": "alice", "session_id": "chat-1", "source": "import",
                "messages": [{"role": "user", "content": "I work at Volkswagen"}]} | override
        response = alice_api.post(URL, body, format="json")
        assert response.status_code == 400, override
        assert field in response.json()["fields"] and response.json()["message"]
    assert not Memory.objects.exists() and not Entity.objects.exists()


def test_unauthenticated_ingest_is_refused(client, db):
    response = client.post(URL, {"session_id": "x", "messages": []}, content_type="application/json")
    assert response.status_code in (401, 403)
    assert not Memory.objects.exists()


def test_a_named_message_is_remembered_as_that_persons_not_the_users(alice_api):
    message = {"role": "user", "name": "Caroline", "content": "I work at Volkswagen",
               "timestamp": "2026-11-30T10:00:00Z"}
    body = {"user_id": "alice", "session_id": "chat-1", "source": "import", "messages": [message]}
    assert alice_api.post(URL, body, format="json").json()["counts"]["stored"] == 1
    memory = Memory.objects.get()
    assert (memory.content, memory.subject.canonical_name) == ("Caroline works at Volkswagen", "Caroline")
    assert not Entity.objects.filter(kind="self").exists()


def test_each_candidate_says_its_memory_and_confidence(alice_api):
    """The README's trace fields: per candidate its memory_id, type, content, domain, confidence and expired."""
    body = post(alice_api, "I prefer morning meetings", source="import").json()
    candidate = body["messages"][0]["results"][0]
    memory = Memory.objects.get()
    assert {key: candidate[key] for key in ("memory_id", "type", "content", "domain", "confidence", "expired")} == {
        "memory_id": memory.pk, "type": "preference", "content": memory.content, "domain": memory.domain,
        "confidence": memory.confidence, "expired": False}
    assert candidate["score"] == candidate["confidence"]  # the older name, kept


def test_a_dry_run_ingest_says_what_would_arrive_expired_and_writes_nothing(alice_api):
    messages = [{"role": "user", "content": "I went to a pottery class yesterday and loved it.",
                 "timestamp": "2023-05-08T13:56:00Z", "id": "old-1"},
                {"role": "user", "content": "I just moved to Lisbon for a new job at Acme.",
                 "timestamp": "2023-05-08T13:57:00Z", "id": "old-2"}]
    body = {"user_id": "alice", "session_id": "old", "source": "import", "messages": messages}
    dry = alice_api.post(URL, {**body, "dry_run": True}, format="json").json()
    assert dry["dry_run"] is True and dry["expiry"]["by_type"]["event"]["expired_on_arrival"] >= 1
    assert dry["expiry"]["purged_on"] and "retrieval_floor" in dry["expiry"]["policy"]
    assert not Memory.objects.exists() and not Entity.objects.exists() and not AuditEvent.objects.exists()
    real = alice_api.post(URL, body, format="json").json()
    assert real["expiry"] == dry["expiry"] and Memory.objects.exists()
    pottery = Memory.objects.get(content__contains="pottery")
    assert pottery.status == "expired" and pottery.expired_at is not None
    assert [row.action for row in pottery.history.order_by("pk")] == ["created", "expired"]
    assert alice_api.post(URL, {**body, "dry_run": 1}, format="json").status_code == 400


def test_passwords_card_numbers_and_keys_said_in_a_chat_are_never_kept(alice_api):
    said = ["My password for the bank is hunter2.", "My card number is 4111 1111 1111 1111.",
            "Here is my API key: sk-live4f9a8b7c6d5e4f3a2b1c", "My password is in the drawer by the door."]
    response = post(alice_api, *said, source="import")
    assert response.status_code == 200
    kept = " ".join(Memory.objects.filter(user_id="alice").values_list("content", flat=True))
    for secret in ("hunter2", "4111", "sk-live4f9a8b7c6d5e4f3a2b1c"):
        assert secret not in kept and secret not in str(response.json())
    assert "password for the bank is [redacted]" in kept and "[card number]" in kept
    assert "in the drawer by the door" in kept  # where a password is kept is no password
