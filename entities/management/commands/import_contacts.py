"""manage.py import_contacts FILE --user-id ID [--self-card "Full Name"]: bootstrap aliases from contacts."""
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from entities.contacts import ContactsFormatError, import_contacts


class Command(BaseCommand):
    help = "Import a vCard (.vcf) or Google/Outlook CSV contacts export into a user's entity graph."

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)
        parser.add_argument("--user-id", required=True)
        parser.add_argument("--self-card", default="",
                            help="Full name on the user's own card; it enriches the user's self entity.")

    def handle(self, *args, file: Path, user_id: str, self_card: str, **options):
        if not file.is_file():
            raise CommandError(f"{file} is not a file.")
        with tqdm(desc="contacts", unit="card", disable=options["verbosity"] < 1) as bar:
            try:
                summary = import_contacts(user_id=user_id, data=file.read_bytes(), filename=file.name,
                                          actor="manage.py import_contacts", self_card=self_card,
                                          progress=bar.update)
            except ContactsFormatError as error:
                raise CommandError(f"{file.name}: {error} Nothing was imported.") from error
        for key, value in summary.as_dict().items():
            self.stdout.write(f"{key}: {value}")
