"""Run Recall: migrate, load the demo data, then a production web server and two django-q2 worker clusters
(the main one, and `recall-ingest` for background ingest jobs).

The web server is uvicorn (ASGI: the console, the REST API and the MCP endpoint at /mcp) with
`--workers` processes (`RECALL_WEB_WORKERS`, default 2), each running Django's requests in
RECALL_WEB_THREADS threads, one hop per request (recall_site/asgi.py); X-Forwarded-For counts only from
RECALL_TRUSTED_PROXIES (recall_site/client_ip.py); static files come from WhiteNoise. `--dev`
runs Django's development server instead (auto-reload off). The banner names the demo logins only
when they exist: console/demo.py makes them with the demo data, and `--no-demo` leaves both out.

Stopping reaches what each child started too (a cluster's worker processes, known by psutil as they
run): SIGINT to each child, SIGTERM to each child's tree after STOP_GRACE_SECONDS, SIGKILL to whatever is
left after STOP_TERM_SECONDS more. A worker
cluster that dies (killed, or crashed: not told to stop) is started again, its left-over processes killed (at most MAX_RESTARTS in RESTART_WINDOW
seconds, then serve stops); the web server's end ends serve.
"""
import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field

import psutil
from django.conf import settings
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import BaseCommand

from recall_site.embedded_db import stop_embedded_server_if_unused
from recall_site.schedules import ensure_schedules

DEMO_LOGINS = ("demo", "admin")  # made by console/demo.py, with the demo data
MAX_RESTARTS, RESTART_WINDOW = 5, 60.0
# Stopping: SIGINT, then SIGTERM after STOP_GRACE_SECONDS, then SIGKILL after STOP_TERM_SECONDS more. A django-q
# cluster told to stop while still starting can miss SIGINT and wait for ever.
STOP_GRACE_SECONDS, STOP_TERM_SECONDS = 1.5, 0.5
ASKED_TO_STOP = {0, -signal.SIGINT, -signal.SIGTERM}  # a cluster ending so was told to (Ctrl-C reaches it too)


@dataclass
class Child:
    """A process serve runs, and the processes it started (as last seen); a worker cluster is started again
    if it dies."""
    name: str
    args: list
    env: dict
    restarts: bool = False
    process: subprocess.Popen | None = None
    started: list = field(default_factory=list)  # monotonic start times
    descendants: list = field(default_factory=list)  # psutil.Process of what it started, as last seen

    def start(self) -> "Child":
        self.started = [t for t in self.started if time.monotonic() - t < RESTART_WINDOW] + [time.monotonic()]
        self.process, self.descendants = subprocess.Popen(self.args, env=self.env), []
        return self

    def may_restart(self) -> bool:
        return self.restarts and len(self.started) <= MAX_RESTARTS

    def look(self) -> None:
        """Note what it runs now: once it is dead, its orphans can no longer be found through it."""
        try:
            self.descendants = psutil.Process(self.process.pid).children(recursive=True) or self.descendants
        except psutil.NoSuchProcess:
            pass

    def kill_leftovers(self) -> None:
        self.signal_tree(signal.SIGKILL, include_self=False)

    def signal_tree(self, signum, include_self: bool = True) -> None:
        """The signal to the child (if it still runs) and to every process it started, as last seen."""
        if self.process.poll() is None:  # once it is dead, what it started is the last look's
            self.look()
            if include_self:
                self.process.send_signal(signum)
        for process in self.descendants:
            try:
                process.send_signal(signum)
            except psutil.NoSuchProcess:
                pass


def _checkpoint() -> None:
    """Write what the migrations changed to disk now, while starting: otherwise the shutdown's checkpoint
    does it (a fresh database's ~300 partition and index files, fsynced one by one), and a stop right after
    the first start outlasted 5 s. A role without the right to CHECKPOINT only skips it."""
    from django.db import DatabaseError, connection

    try:
        with connection.cursor() as cursor:
            cursor.execute("CHECKPOINT")
    except DatabaseError:
        pass


class Command(BaseCommand):
    help = "Migrate, load the demo data, and serve the web app plus a background worker until Ctrl-C."

    def add_arguments(self, parser):
        parser.add_argument("--addr", default="127.0.0.1:8000")
        parser.add_argument("--no-demo", action="store_true", help="Do not load the demo data.")
        parser.add_argument("--workers", type=int, default=int(os.environ.get("RECALL_WEB_WORKERS", "2")),
                            help="Web server processes (default RECALL_WEB_WORKERS or 2).")
        parser.add_argument("--dev", action="store_true", help="Django's development server instead of uvicorn.")

    def handle(self, *args, addr, no_demo, workers, dev, **options):
        call_command("migrate", interactive=False, verbosity=0)
        _checkpoint()
        if not no_demo:
            call_command("load_demo")
        ensure_schedules()
        demo = User.objects.filter(username__in=DEMO_LOGINS).exists()
        self._banner(f"http://{addr}", demo=demo)
        worker_env = {**os.environ, "RECALL_DB_APPLICATION_NAME": "recall-worker"}
        children = [
            Child("worker cluster", [sys.executable, "manage.py", "qcluster"], worker_env, restarts=True).start(),
            # Background ingest jobs in a cluster of their own: never behind the main queue's embedding work.
            Child("ingest cluster", [sys.executable, "manage.py", "qcluster"],
                  {**worker_env, "Q_CLUSTER_NAME": settings.RECALL_INGEST_QUEUE}, restarts=True).start(),
            Child("web server", _dev_server(addr) if dev else _web_server(addr, workers),
                  _web_environment(workers)).start(),
        ]
        self._wait(children)

    def _banner(self, base: str, *, demo: bool) -> None:
        self.stdout.write(self.style.SUCCESS("Recall is starting."))
        self.stdout.write(f"  Console:   {base}/")
        self.stdout.write(f"  Admin:     {base}/admin/")
        self.stdout.write(f"  API docs:  {base}/api/docs/")
        if demo:
            self.stdout.write("  Demo logins, created with the demo data only (not with serve --no-demo): "
                              "demo / demo (acts for user id `default`), admin / admin.")
            self.stdout.write("  API token: .venv/bin/python manage.py drf_create_token demo")
        else:
            self.stdout.write("  No demo data, so no demo logins: .venv/bin/python manage.py createsuperuser "
                              "makes an account.")
        self.stdout.write("Press Ctrl-C to stop the server and the worker.")

    def _wait(self, children: list[Child]):
        stopping = []

        def stop(*_):
            if stopping:
                return  # once: a further SIGINT cuts a cluster's own shutdown short (Ctrl-C already sent one)
            stopping.append(True)
            for child in children:
                if child.process.poll() is None:
                    child.look()
                    child.process.send_signal(signal.SIGINT)

        # Ctrl-C (SIGINT to the whole group) and SIGTERM both just ask to stop: no KeyboardInterrupt half-way
        # through starting a cluster again.
        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        while not stopping and self._supervise(children, stopping):
            time.sleep(0.5)
        stop()
        for signum, seconds in ((None, STOP_GRACE_SECONDS), (signal.SIGTERM, STOP_TERM_SECONDS)):
            if signum:  # a cluster that missed the SIGINT (sent while it was still starting) hears this
                for child in children:
                    child.signal_tree(signum)
            deadline = time.monotonic() + seconds
            for child in children:
                try:
                    child.process.wait(timeout=max(deadline - time.monotonic(), 0.01))
                except subprocess.TimeoutExpired:
                    pass
        for child in children:
            child.signal_tree(signal.SIGKILL)  # whatever is left, a cluster's workers too
            child.process.wait()
        if stop_embedded_server_if_unused():
            self.stdout.write("Embedded PostgreSQL stopped.")
        self.stdout.write("Recall stopped.")

    def _supervise(self, children: list[Child], stopping: list) -> bool:
        """Start a dead worker cluster again; False when serve must stop (the web server ended, or a cluster
        keeps dying)."""
        if any(child.process.poll() is not None and not child.restarts for child in children):
            self.stderr.write("The web server stopped; stopping Recall.")
            return False
        for child in children:
            code = child.process.poll()
            if code is None:
                child.look()
                continue
            if stopping or code in ASKED_TO_STOP or not child.may_restart():
                self.stderr.write(f"The {child.name} stopped (exit code {code}); stopping Recall.")
                return False
            self.stderr.write(f"The {child.name} stopped (exit code {code}); starting it again.")
            child.kill_leftovers()
            child.start()
        return True


def _web_server(addr: str, workers: int) -> list[str]:
    host, _, port = addr.rpartition(":")
    return [sys.executable, "-m", "uvicorn", "recall_site.asgi:application", "--host", host or "127.0.0.1",
            "--port", port, "--workers", str(workers), "--lifespan", "on", "--no-access-log",  # recall.request logs
            "--http", "recall_site.http_protocol:NoDelayHTTPProtocol",
            # uvicorn would take X-Forwarded-For from 127.0.0.1 at its word; recall_site.asgi trusts the
            # header from RECALL_TRUSTED_PROXIES only (recall_site/client_ip.py).
            "--no-proxy-headers"]


def _dev_server(addr: str) -> list[str]:
    return [sys.executable, "manage.py", "runserver", addr, "--noreload"]


def _web_environment(workers: int) -> dict:
    """With several processes, Prometheus counters add up through files in a fresh directory."""
    env = dict(os.environ, RECALL_DB_APPLICATION_NAME="recall-web")
    if workers > 1:
        directory = settings.VAR_DIR / "prometheus"
        shutil.rmtree(directory, ignore_errors=True)
        directory.mkdir(parents=True)
        env["PROMETHEUS_MULTIPROC_DIR"] = str(directory)
    return env
