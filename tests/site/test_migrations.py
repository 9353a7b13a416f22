"""The committed migrations match the models."""
from django.core.management import call_command


def test_no_missing_migrations(db):
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)
