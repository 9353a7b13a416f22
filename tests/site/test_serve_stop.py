"""Ctrl-C on `make run` (`manage.py serve`) stops the web server, the worker and the embedded PostgreSQL
within 5 s, and keeps the data: a real serve in a subprocess with its own data directory."""
import os
import shutil
import signal
import subprocess
import time

import pytest

from tests.site.live_serve import clean_up, free_port, fresh_var, running, serve_log, start_serve


def ctrl_c(serve: subprocess.Popen, ours: str, *, terminate: bool = False) -> float:
    """SIGINT to the process group, as Ctrl-C in a terminal sends (or SIGTERM to serve alone, as a process
    manager or `docker stop` sends); seconds until nothing of `ours` runs."""
    if terminate:
        serve.terminate()
    else:
        os.killpg(serve.pid, signal.SIGINT)
    began = time.monotonic()
    while (running(ours) or serve.poll() is None) and time.monotonic() - began < 10:
        time.sleep(0.2)
    return time.monotonic() - began


@pytest.mark.skipif(bool(os.environ.get("DATABASE_URL")), reason="the embedded server only")
@pytest.mark.parametrize("terminate", [False, True], ids=["ctrl-c", "sigterm"])
def test_ctrl_c_stops_the_web_server_the_worker_and_the_embedded_postgresql(tmp_path, terminate):
    var, port = fresh_var(tmp_path), free_port()
    ours = f"{var}|127.0.0.1:{port}"
    serve = start_serve(var, port)
    try:
        assert running(f"postgres.*{var}")
        stopped_after = ctrl_c(serve, ours, terminate=terminate)
        left = subprocess.run(["pgrep", "-af", ours], capture_output=True, text=True).stdout
        assert serve.poll() is not None and not running(ours), f"still running (serve {serve.poll()}): {left}"
        assert stopped_after < 5, f"stopping took {stopped_after:.1f} s"
        assert (var / "pgdata" / "PG_VERSION").exists(), "the data survives a stop"
    finally:
        clean_up(serve, var)
        shutil.rmtree(var, ignore_errors=True)


@pytest.mark.skipif(bool(os.environ.get("DATABASE_URL")), reason="the embedded server only")
def test_a_postgresql_left_by_a_killed_run_is_reused_and_stopped_by_the_next(tmp_path):
    var, port = fresh_var(tmp_path), free_port()
    ours = f"{var}|127.0.0.1:{port}"
    serve = start_serve(var, port)
    try:
        os.killpg(serve.pid, signal.SIGKILL)  # no exit hooks run: the embedded server is left behind
        serve.wait(timeout=10)
        left = running(f"postgres.*{var}")
        assert left, "the killed run left no PostgreSQL: nothing to test"

        serve = start_serve(var, port)  # the next start
        assert running(f"postgres.*{var}")[:1] == left[:1], "the left-over server is reused, not a second one"
        stopped_after = ctrl_c(serve, ours)
        assert not running(ours), "the left-over PostgreSQL outlived the next run"
        assert stopped_after < 5, f"stopping took {stopped_after:.1f} s"
    finally:
        clean_up(serve, var)
        shutil.rmtree(var, ignore_errors=True)


@pytest.mark.skipif(bool(os.environ.get("DATABASE_URL")), reason="the embedded server only")
def test_a_worker_cluster_killed_is_started_again_and_ctrl_c_still_stops_everything(tmp_path):
    import psutil

    var, port = fresh_var(tmp_path), free_port()
    ours = f"{var}|127.0.0.1:{port}"
    serve = start_serve(var, port)
    try:
        def clusters():
            found = []
            for child in psutil.Process(serve.pid).children():
                try:
                    if child.status() != psutil.STATUS_ZOMBIE and "qcluster" in " ".join(child.cmdline()):
                        found.append(child.pid)
                except psutil.Error:
                    pass  # gone meanwhile
            return sorted(found)

        before = clusters()
        assert len(before) == 2, before
        os.kill(before[0], signal.SIGKILL)
        began, after = time.monotonic(), before
        while (len(after) < 2 or after == before) and time.monotonic() - began < 15:
            time.sleep(0.3)
            after = clusters()  # one look per turn: a process being started may not show in the next
        assert len(after) == 2 and before[0] not in after, f"not started again: {serve_log(var)}"
        assert serve.poll() is None
        stopped_after = ctrl_c(serve, ours)
        left = subprocess.run(["pgrep", "-af", ours], capture_output=True, text=True).stdout
        assert not running(ours) and stopped_after < 8, f"stopping took {stopped_after:.1f} s; running: {left}\n{serve_log(var)}"
        assert not psutil.pid_exists(after[0]) and not psutil.pid_exists(after[1]), "a cluster outlived serve"
    finally:
        clean_up(serve, var)
        shutil.rmtree(var, ignore_errors=True)
