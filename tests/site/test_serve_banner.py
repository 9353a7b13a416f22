"""The `serve` start banner prints commands that run as written from the project folder."""
from io import StringIO

from console.management.commands.serve import Command


def banner(*, demo: bool) -> str:
    out = StringIO()
    Command(stdout=out)._banner("http://127.0.0.1:8000", demo=demo)
    return out.getvalue()


def test_banner_prints_the_exact_token_command():
    text = banner(demo=True)
    assert "API token: .venv/bin/python manage.py drf_create_token demo\n" in text
    assert "Console:   http://127.0.0.1:8000/" in text


def test_banner_without_demo_names_the_account_command():
    text = banner(demo=False)
    assert ".venv/bin/python manage.py createsuperuser" in text and "drf_create_token" not in text
