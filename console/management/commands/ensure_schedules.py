"""Create or update Recall's recurring django-q2 schedules (idempotent; `serve` runs it too)."""
from django.core.management.base import BaseCommand

from recall_site.schedules import ensure_schedules


class Command(BaseCommand):
    help = "Create or update the embedding, expiry, drift, audit-retention and metric schedules."

    def handle(self, *args, **options):
        ensure_schedules()
        self.stdout.write(self.style.SUCCESS("Schedules are in place."))
