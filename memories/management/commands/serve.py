"""Run Recall for development: migrate, load demo data, then the web server and a django-q2 worker."""
import signal
import subprocess
import sys

from django.core.management import call_command
from django.core.management.base import BaseCommand

from memories.schedules import ensure_schedules


class Command(BaseCommand):
    help = "Migrate, load the demo data, and serve the web app plus a background worker until Ctrl-C."

    def add_arguments(self, parser):
        parser.add_argument("--addr", default="127.0.0.1:8000")
        parser.add_argument("--no-demo", action="store_true", help="Do not load the demo data.")

    def handle(self, *args, addr, no_demo, **options):
        call_command("migrate", interactive=False, verbosity=0)
        if not no_demo:
            call_command("load_demo")
        ensure_schedules()
        base = f"http://{addr}"
        self.stdout.write(self.style.SUCCESS("Recall is starting."))
        self.stdout.write(f"  Console:   {base}/   (demo login: demo / demo)")
        self.stdout.write(f"  Admin:     {base}/admin/   (admin / admin)")
        self.stdout.write(f"  API docs:  {base}/api/docs/")
        self.stdout.write(f"  API token: python manage.py drf_create_token demo")
        self.stdout.write("Press Ctrl-C to stop the server and the worker.")
        children = [
            subprocess.Popen([sys.executable, "manage.py", "qcluster"]),
            subprocess.Popen([sys.executable, "manage.py", "runserver", addr, "--noreload"]),
        ]
        self._wait(children)

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
        self.stdout.write("Recall stopped.")
