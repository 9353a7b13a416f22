"""The served path for the benchmarks: a real `manage.py serve` on the bench's own database, and HTTP clients.

`serving(database)` starts `manage.py serve --no-demo` (uvicorn with its web workers, the worker cluster)
on a free loopback port against a database the bench has loaded (the embedded server's, by its socket),
waits until /api/v1/ready answers 200 and then SETTLE_SECONDS more (the other processes' start-up); `timed_posts` sends JSON bodies over one keep-alive connection or a
new connection per request (http.client, as `requests.Session` or curl would) and returns the latencies;
`ServedClient` sends them one at a time, so a bench can interleave them with in-process requests.
"""
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
# Ready is not yet quiet: the other web worker and both worker clusters are still loading the model.
SETTLE_SECONDS = 45


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def database_url(settings_dict: dict) -> str:
    """A DATABASE_URL for the database Django is using now (a socket directory as its host)."""
    host = quote(settings_dict["HOST"], safe="") if settings_dict["HOST"].startswith("/") else settings_dict["HOST"]
    port = f":{settings_dict['PORT']}" if settings_dict["PORT"] else ""
    return f"postgres://{settings_dict['USER']}@{host}{port}/{settings_dict['NAME']}"


@contextmanager
def serving(settings_dict: dict, *, workers: int = 2):
    """(port) of a `manage.py serve` on this database, stopped (as Ctrl-C does) when the block ends."""
    port = free_port()
    env = dict(os.environ, DATABASE_URL=database_url(settings_dict), RECALL_WEB_WORKERS=str(workers),
               RECALL__MEMORY_SEMANTIC__STARTUP_CANARY_BYPASS="true")  # a busy host must not turn vectors off
    env.pop("DJANGO_SETTINGS_MODULE", None)
    serve = subprocess.Popen([sys.executable, "manage.py", "serve", "--no-demo", "--addr", f"127.0.0.1:{port}"],
                             cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True)
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            if serve.poll() is not None:
                raise RuntimeError("manage.py serve stopped before it was ready")
            try:
                if timed_requests(port, "GET", "/api/v1/ready", [None])[0][0] == 200:
                    break
            except OSError:
                pass
            time.sleep(0.5)
        else:
            raise RuntimeError("manage.py serve was not ready within 180 s")
        time.sleep(SETTLE_SECONDS)
        yield port
    finally:
        if serve.poll() is None:
            os.killpg(serve.pid, signal.SIGINT)
            try:
                serve.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(serve.pid, signal.SIGKILL)


class ServedClient:
    """Requests to a served port over one keep-alive connection, or a new connection each (http.client, as
    `requests.Session` or curl would): `request` answers (status, ms) and keeps the answer's body in `body`."""

    def __init__(self, port: int, *, token: str = "", keep_alive: bool = True):
        self.port, self.keep_alive, self.connection, self.body = port, keep_alive, None, b""
        self.headers = {"Content-Type": "application/json"} | ({"Authorization": f"Token {token}"} if token else {})

    def request(self, method: str, path: str, body=None) -> tuple[int, float]:
        if self.connection is None or not self.keep_alive:
            self.close()
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        began = time.perf_counter()
        self.connection.request(method, path, body=None if body is None else json.dumps(body), headers=self.headers)
        response = self.connection.getresponse()
        self.body = response.read()
        return response.status, (time.perf_counter() - began) * 1000

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None


def timed_requests(port: int, method: str, path: str, bodies: list, *, token: str = "",
                   keep_alive: bool = True) -> list[tuple[int, float]]:
    """(status, ms) per body (None: no body), over one keep-alive connection or a new one each."""
    client = ServedClient(port, token=token, keep_alive=keep_alive)
    try:
        return [client.request(method, path, body) for body in bodies]
    finally:
        client.close()
