"""Run Recall: migrate, load the demo data, then a production web server and two django-q2 worker clusters
(the main one, and `recall-ingest` for background ingest jobs).

The web server is uvicorn (ASGI: the console, the REST API and the MCP endpoint at /mcp) with
`--workers` processes (`RECALL_WEB_WORKERS`, default 2), each running Django's requests in
RECALL_WEB_THREADS threads, one hop per request (recall_site/asgi.py); X-Forwarded-For counts only from
RECALL_TRUSTED_PROXIES (recall_site/client_ip.py); static files come from WhiteNoise. `--dev`
runs Django's development server instead (auto-reload off). The banner names the demo logins only
when they exist: memories/demo.py makes them with the demo data, and `--no-demo` leaves both out.
"""
import os
import shutil
import signal
import subprocess
import sys

from django.conf import settings
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import BaseCommand

from recall_site.embedded_db import stop_embedded_server_if_unused
from recall_site.schedules import ensure_schedules

DEMO_LOGINS = ("demo", "admin")  # made by memories/demo.py, with the demo data


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
        if not no_demo:
            call_command("load_demo")
        ensure_schedules()
        demo = User.objects.filter(username__in=DEMO_LOGINS).exists()
        self._banner(f"http://{addr}", demo=demo)
        children = [
            subprocess.Popen([sys.executable, "manage.py", "qcluster"],
                             env={**os.environ, "RECALL_DB_APPLICATION_NAME": "recall-worker"}),
            # Background ingest jobs in a cluster of their own: never behind the main queue's embedding work.
            subprocess.Popen([sys.executable, "manage.py", "qcluster"],
                             env={**os.environ, "RECALL_DB_APPLICATION_NAME": "recall-worker",
                                  "Q_CLUSTER_NAME": settings.RECALL_INGEST_QUEUE}),
            subprocess.Popen(_dev_server(addr) if dev else _web_server(addr, workers), env=_web_environment(workers)),
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

    def _wait(self, children):
        def stop(*_):
            for child in children:
                if child.poll() is None:
                    child.send_signal(signal.SIGINT)

        signal.signal(signal.SIGTERM, stop)
        try:
            while all(child.poll() is None for child in children):
                try:
                    children[0].wait(timeout=1)
                except subprocess.TimeoutExpired:
                    pass
        except KeyboardInterrupt:
            pass
        stop()
        for child in children:
            try:
                child.wait(timeout=20)
            except subprocess.TimeoutExpired:
                child.kill()
        if stop_embedded_server_if_unused():
            self.stdout.write("Embedded PostgreSQL stopped.")
        self.stdout.write("Recall stopped.")


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
