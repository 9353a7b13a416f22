"""Ctrl-C on `make run` (`manage.py serve`) stops the web server, the worker and the embedded PostgreSQL
within 5 s, and keeps the data: a real serve in a subprocess with its own data directory."""
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def running(pattern: str) -> list[str]:
    return subprocess.run(["pgrep", "-f", pattern], capture_output=True, text=True).stdout.split()


@pytest.mark.skipif(bool(os.environ.get("DATABASE_URL")), reason="the embedded server only")
def test_ctrl_c_stops_the_web_server_the_worker_and_the_embedded_postgresql(tmp_path):
    var = tmp_path / "var"
    var.mkdir()
    (var / "secret_key").write_text("serve-stop-test-" + "k" * 40)
    port = free_port()
    env = dict(os.environ, RECALL_VAR_DIR=str(var), RECALL_WEB_WORKERS="1")
    env.pop("DJANGO_SETTINGS_MODULE", None)
    serve = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--addr", f"127.0.0.1:{port}", "--no-demo"], cwd=ROOT, env=env,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    ours = f"{var}|127.0.0.1:{port}"
    try:
        for _ in range(120):
            time.sleep(0.5)
            try:
                if urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/health", timeout=2).status == 200:
                    break
            except OSError:
                continue
        else:
            pytest.fail("serve never answered /api/v1/health")
        assert running(f"postgres.*{var}")

        os.killpg(serve.pid, signal.SIGINT)  # what Ctrl-C in a terminal sends: the whole process group
        began = time.monotonic()
        while (running(ours) or serve.poll() is None) and time.monotonic() - began < 10:
            time.sleep(0.2)
        stopped_after = time.monotonic() - began
        assert serve.poll() is not None and not running(ours), "something of Recall is still running"
        assert stopped_after < 5, f"stopping took {stopped_after:.1f} s"
        assert (var / "pgdata" / "PG_VERSION").exists(), "the data survives a stop"
    finally:
        if serve.poll() is None:
            os.killpg(serve.pid, signal.SIGKILL)
        for pid in running(ours):
            subprocess.run(["kill", "-9", pid], check=False)
        shutil.rmtree(var, ignore_errors=True)
