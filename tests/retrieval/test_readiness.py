"""The semantic startup canary and /api/v1/ready: ok, timeout, auth, connection, bypass, disabled."""
import os
import shutil
import tempfile
import time
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from memories import embedding
from memories.readiness import reset_canary, run_canary
from recall_site.config import load_config
from tests import factories

NOBODY = 65534


@pytest.fixture
def real_canary(recall_config):
    """Undo the suite's bypass: these tests run the actual canary."""
    recall_config({"memory_semantic": {"startup_canary_bypass": False}})
    reset_canary()


@pytest.fixture
def model_path(settings):
    """Point the embedding model at another path for one test, then restore the packaged model."""

    def use(path):
        settings.RECALL_EMBEDDING_MODEL = str(path)
        embedding.get_model.cache_clear()
        reset_canary()

    yield use
    settings.RECALL_EMBEDDING_MODEL = ""
    embedding.get_model.cache_clear()


def semantic_report():
    response = APIClient().get("/api/v1/ready")
    assert response.status_code == 200
    return response.json()["semantic"]


def search_retrievers(api):
    return api.post("/api/v1/search", {"query": "green tea", "scope": {"user_id": "alice"}}, format="json").json()


def test_canary_passes_and_semantic_retrieval_is_on(alice_api, real_canary, remember):
    tea = remember("Likes green tea", type="preference")
    report = semantic_report()
    assert report["ready"] is True and report["reason"] == ""
    assert 0 < report["canary_ping_ms"] < 120
    result = search_retrievers(alice_api)
    assert result["retrievers"] == ["lexical", "semantic", "graph"]
    assert result["results"][0]["id"] == tea.pk


def test_a_tiny_timeout_reports_canary_timeout_and_search_falls_back_to_text(
        alice_api, real_canary, recall_config, remember):
    tea = remember("Likes green tea", type="preference")
    recall_config({"memory_semantic": {"startup_canary_timeout_ms": 0}})
    report = semantic_report()
    assert report == {**report, "enabled": True, "ready": False, "reason": "canary_timeout"}
    result = search_retrievers(alice_api)
    assert result["retrievers"] == ["lexical", "graph"]
    assert [hit["id"] for hit in result["results"]] == [tea.pk]


def test_a_missing_model_reports_canary_connection(alice_api, real_canary, model_path, db):
    model_path("/nonexistent/all-MiniLM-L6-v2")
    assert semantic_report()["reason"] == "canary_connection"
    assert search_retrievers(alice_api)["retrievers"] == ["lexical", "graph"]


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to drop to another user")
def test_unreadable_model_files_report_canary_auth(real_canary, model_path):
    """The model files exist but this process may not read them (permission denied)."""
    source = Path(embedding.model_path())
    folder = Path(tempfile.mkdtemp(prefix="recall-locked-model-"))  # outside pytest's root-only tmp dirs
    try:
        folder.chmod(0o755)
        locked = folder / "model"
        shutil.copytree(source, locked, ignore=shutil.ignore_patterns("*.safetensors"))
        (locked / "model.safetensors").symlink_to(source / "model.safetensors")
        for config in locked.glob("*.json"):
            config.chmod(0o600)
        model_path(locked)
        embedding.get_model()  # root can read it: every module the load needs is now imported
        embedding.get_model.cache_clear()
        assert _reason_as_nobody() == "canary_auth"
    finally:
        shutil.rmtree(folder)


def _reason_as_nobody() -> str:
    read_end, write_end = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - runs in the forked child
        os.close(read_end)
        try:
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            reason = run_canary().reason
        except BaseException as exc:  # noqa: BLE001
            reason = f"child failed: {exc!r}"
        os.write(write_end, reason.encode())
        os._exit(0)
    os.close(write_end)
    os.waitpid(child, 0)
    with os.fdopen(read_end) as pipe:
        return pipe.read()


def test_bypass_environment_variable_skips_the_canary(settings, real_canary, model_path, db):
    model_path("/nonexistent/all-MiniLM-L6-v2")
    settings.RECALL = load_config({"PYPIBOT_SEMANTIC_CANARY_BYPASS": "1"})
    assert semantic_report() == {"enabled": True, "ready": True, "reason": "canary_bypassed"}


def test_semantic_disabled_still_searches_text_and_graph(alice_api, recall_config, db):
    recall_config({"memory_semantic": {"enabled": False, "rerank_enabled": False}})
    tea = factories.memory("alice", "Likes green tea")
    assert semantic_report() == {"enabled": False, "ready": False, "reason": "disabled"}
    result = search_retrievers(alice_api)
    assert result["retrievers"] == ["lexical", "graph"]
    assert [hit["id"] for hit in result["results"]] == [tea.pk]


def test_warm_up_embeds_the_query_centroids_and_takes_startup_objects_out_of_the_collector():
    import gc

    from recall_site.startup import warm_up
    from search.retrieval.gating import query_domain_centroids

    query_domain_centroids.cache_clear()
    try:
        warm_up()
        assert query_domain_centroids.cache_info().currsize == 1
        assert gc.get_freeze_count() > 100_000  # the model's objects: no full collection walks them again
    finally:
        gc.unfreeze()


def test_a_worker_process_warms_up_when_it_spawns(settings):
    """django-q2 sends post_spawn in each worker process before its first task."""
    import gc

    from django_q.signals import post_spawn

    from search.retrieval.gating import query_domain_centroids

    query_domain_centroids.cache_clear()
    post_spawn.send(sender="django_q", proc_name="Process-1")  # a sync cluster's task, in this process
    assert query_domain_centroids.cache_info().currsize == 0
    settings.WORKER_PROCESS = True  # as in `manage.py qcluster`
    try:
        post_spawn.send(sender="django_q", proc_name="Process-1")
        assert query_domain_centroids.cache_info().currsize == 1
        assert gc.get_freeze_count() > 100_000
    finally:
        gc.unfreeze()


def test_a_search_during_the_start_up_warm_up_runs_on_text_and_graph_without_waiting(db, monkeypatch, recall_config):
    from memories import readiness
    from search.retrieval import search_memories

    factories.memory(content="prefers window seats on long flights")
    recall_config({"memory_semantic": {"startup_canary_bypass": False}})
    monkeypatch.setattr(readiness, "_result", None)
    with readiness._lock:  # the warm-up thread is loading the model
        began = time.perf_counter()
        outcome = search_memories(user_id="alice", query="window seats", include_all_domains=True)
        waited = time.perf_counter() - began
        assert readiness.semantic_status(wait=False)["reason"] == "warming"
    assert outcome.semantic == "warming" and "semantic" not in outcome.retrievers and waited < 2
    assert [hit.memory.content for hit in outcome.hits] == ["prefers window seats on long flights"]
