"""A real `manage.py serve` in a subprocess, in its own process group and data directory, for the tests
that need the whole of `make run` (web server, worker, embedded PostgreSQL)."""
import http.client
import os
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


def fresh_var(tmp_path: Path) -> Path:
    """A data directory with a secret key, as `make run` makes one."""
    var = tmp_path / "var"
    var.mkdir()
    (var / "secret_key").write_text("live-serve-test-" + "k" * 40)
    return var


def serve_env(var: Path, **extra: str) -> dict:
    env = dict(os.environ, RECALL_VAR_DIR=str(var), **{"RECALL_WEB_WORKERS": "1", **extra})
    env.pop("DJANGO_SETTINGS_MODULE", None)
    return env


def start_serve(var: Path, port: int, *, demo: bool = False, **env: str) -> subprocess.Popen:
    """`manage.py serve` answering /api/v1/health (SIGINT as in a terminal: the whole group gets it); what it
    prints goes to `var`/serve.log (`serve_log`)."""
    command = [sys.executable, "manage.py", "serve", "--addr", f"127.0.0.1:{port}"] + ([] if demo else ["--no-demo"])
    with open(var / "serve.log", "ab") as log:
        serve = subprocess.Popen(command, cwd=ROOT, env=serve_env(var, **env), stdout=log, stderr=log,
                                 start_new_session=True,
                                 preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    for _ in range(240):
        if serve.poll() is not None:
            pytest.fail("serve stopped before answering /api/v1/health")
        try:
            if urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/health", timeout=2).status == 200:
                return serve
        except OSError:
            time.sleep(0.25)
    os.killpg(serve.pid, signal.SIGKILL)
    pytest.fail("serve never answered /api/v1/health")


def status_on_a_new_connection(port: int, path: str, headers: dict | None = None) -> int:
    """The status of one GET on a connection of its own (with several web workers, it may land on any)."""
    client = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        client.request("GET", path, headers=headers or {})
        return client.getresponse().status
    finally:
        client.close()


def serve_log(var: Path, lines: int = 15) -> str:
    """The end of what serve printed, for a failing test's message."""
    path = var / "serve.log"
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:]) if path.exists() else ""


def running(pattern: str) -> list[str]:
    return subprocess.run(["pgrep", "-f", pattern], capture_output=True, text=True).stdout.split()


def clean_up(serve: subprocess.Popen, var: Path) -> None:
    """Stop a serve still running as Ctrl-C does, then kill whatever is left of it or uses `var`."""
    if serve.poll() is None:
        os.killpg(serve.pid, signal.SIGINT)
        try:
            serve.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(serve.pid, signal.SIGKILL)
    for pid in running(str(var)):
        subprocess.run(["kill", "-9", pid], check=False)
