"""Contacts import benchmark: one vCard of N distinct people ("Person 1 Test" … "Person N Test", each with
a nickname, an organisation and a phone number), imported into a user with no entities, then the same file
again (every card now matches). Prints the wall time of each import and how many people it made.

    python bench/contacts_import.py [--cards 3000] [--known 0]

`--known K` first gives the user K people from "conversation" (no aliases but their name), so the cards
are matched against existing entities too. Runs in its own database (bench_recall_contacts, kept between
runs); no model is loaded.
"""
import argparse
import os
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
import bench_path  # noqa: E402, F401 - first: the apps before this directory on sys.path

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "recall_site.settings")
os.environ.setdefault("DEBUG", "false")  # as in production: no per-query debug recording
os.environ["RECALL_TEST_DB_NAME"] = "bench_recall_contacts"

USER_ID = "bench-contacts"


def vcard_file(cards: int) -> bytes:
    lines = []
    for n in range(1, cards + 1):
        lines += ["BEGIN:VCARD", "VERSION:3.0", f"FN:Person {n} Test", f"N:Test;Person {n};;;",
                  f"NICKNAME:P{n}", f"ORG:Company {n % 50}", f"TEL;TYPE=CELL:+49 30 {n:07d}", "END:VCARD"]
    return ("\r\n".join(lines) + "\r\n").encode()


def timed_import(data: bytes) -> tuple[float, object]:
    from entities.contacts import import_contacts

    began = time.perf_counter()
    summary = import_contacts(user_id=USER_ID, data=data, filename="bench.vcf", actor="bench")
    return time.perf_counter() - began, summary


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cards", type=int, default=3000)
    parser.add_argument("--known", type=int, default=0, help="people the user has before the import")
    args = parser.parse_args()
    import django

    django.setup()
    from django.db import connection

    from audit.models import AuditEvent
    from entities.models import Entity
    from entities.services import entity_create

    connection.creation.create_test_db(verbosity=0, keepdb=True)
    Entity.objects.filter(user_id=USER_ID).delete()
    AuditEvent.objects.filter(user_id=USER_ID).delete()
    for n in range(1, args.known + 1):
        entity_create(user_id=USER_ID, name=f"Known{n} Friend{n}")
    data = vcard_file(args.cards)
    print(f"{args.cards} cards, {len(data) / 1000:.0f} KB, {args.known} people known before", flush=True)
    for label in ("first import", "same file again"):
        seconds, summary = timed_import(data)
        print(f"{label}: {seconds:.2f} s ({seconds / args.cards * 1000:.2f} ms per card); "
              f"people created {summary.people_created}, matched {summary.people_matched}, "
              f"aliases added {summary.aliases_added}, ambiguous {summary.ambiguous}", flush=True)
    people = Entity.objects.live().filter(user_id=USER_ID, kind="person").count()
    print(f"people: {people}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
