"""Load the demo accounts and the demo user's memories (idempotent)."""
from django.core.management.base import BaseCommand

from console.demo import load_demo_data


class Command(BaseCommand):
    help = "Create demo/demo (acts for user `default`), admin/admin, and demo memories for `default`."

    def handle(self, *args, **options):
        if load_demo_data():
            self.stdout.write(self.style.SUCCESS("Demo data loaded for user_id 'default'."))
        else:
            self.stdout.write("Demo data already present.")
