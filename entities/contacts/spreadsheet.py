"""Read Google Contacts and Outlook CSV exports into ContactCards.

Columns are found by their header names (both Google layouts and Outlook's);
numbered Google columns ("Relation 1 - Label" / "Relation 1 - Value") are paired.
"""
import csv
import io
import re

from entities.contacts.cards import ContactCard, ContactsFormatError, file_as_name, relation_label

GIVEN = ("first name", "given name")
FAMILY = ("last name", "family name")
FULL = ("name", "display name")
PREFIX = ("name prefix", "prefix", "title")
NICKNAME = ("nickname",)
FILE_AS = ("file as",)
ORGANISATION = ("organization name", "organization 1 - name", "company")
MIDDLE_AND_METADATA = ("middle name", "additional name", "name suffix", "suffix", "labels", "group membership")
# Outlook keeps a few relations in fixed columns.
OUTLOOK_RELATIONS = {"manager's name": "manager", "assistant's name": "assistant", "spouse": "spouse",
                     "children": "child"}
_RELATION_COLUMN = re.compile(r"^relation (\d+) - (label|type|value)$")
_NUMBERED_GROUP = re.compile(r"^(.+? \d+) - ")
# Column name fragment → skipped category; "- label"/"- type" columns describe a value and are not counted.
_SKIP_WORDS = (
    ("phone", "phone"), ("fax", "phone"), ("mobile", "phone"), ("pager", "phone"),
    ("e-mail", "email"), ("email", "email"),
    ("address", "address"), ("street", "address"), ("city", "address"), ("postal", "address"),
    ("zip", "address"), ("country", "address"), ("po box", "address"), ("location", "address"),
    ("birthday", "birthday"), ("anniversary", "birthday"), ("event", "birthday"),
    ("photo", "photo"),
)
MULTI_VALUE_SEPARATOR = " ::: "  # Google's separator inside one cell


def read_csv_contacts(text: str) -> list[ContactCard]:
    reader = csv.reader(io.StringIO(text))
    try:
        return _read_rows(reader)
    except csv.Error as error:  # a field over csv.field_size_limit(), a NUL byte, …
        raise ContactsFormatError(f"Line {reader.line_num}: cannot read the CSV ({error}).") from None


def _read_rows(reader) -> list[ContactCard]:
    header = [column.strip().lower() for column in next(reader, [])]
    if not any(column in header for column in (*GIVEN, *FAMILY, *FULL)):
        raise ContactsFormatError(
            "Line 1: no name columns found (expected 'First Name'/'Last Name' or 'Name', as Google and "
            "Outlook export them)."
        )
    cards = []
    for row in reader:
        if len(row) > len(header):
            raise ContactsFormatError(
                f"Line {reader.line_num}: {len(row)} fields but the header has {len(header)} "
                "(a stray comma or an unclosed quote?)."
            )
        if any(cell.strip() for cell in row):
            cards.append(_card(dict(zip(header, row)), f"row {len(cards) + 1}, line {reader.line_num}"))
    if not cards:
        raise ContactsFormatError("The CSV has a header but no contacts.")
    return cards


def _pick(row: dict, columns) -> str:
    return next((row[c].strip() for c in columns if row.get(c, "").strip()), "")


def _values(cell: str) -> list[str]:
    return [value.strip() for value in cell.split(MULTI_VALUE_SEPARATOR) if value.strip()]


def _card(row: dict, where: str) -> ContactCard:
    card = ContactCard(
        where=where, full_name=_pick(row, FULL), given_name=_pick(row, GIVEN), family_name=_pick(row, FAMILY),
        prefix=_pick(row, PREFIX), file_as=file_as_name(_pick(row, FILE_AS)),
        nicknames=_values(_pick(row, NICKNAME)), organisation=next(iter(_values(_pick(row, ORGANISATION))), ""),
    )
    used = {*GIVEN, *FAMILY, *FULL, *PREFIX, *NICKNAME, *FILE_AS, *ORGANISATION, *MIDDLE_AND_METADATA}
    used |= _read_relations(card, row)
    counted_groups = set()
    for column, cell in row.items():
        if column in used or not cell.strip() or column.endswith((" - label", " - type")):
            continue
        group = _NUMBERED_GROUP.match(column)
        if group and group.group(1) in counted_groups:
            continue  # "Address 1 - Street" and "Address 1 - City" are one address
        if group:
            counted_groups.add(group.group(1))
        card.skipped[_category(column)] += len(_values(cell))
    return card


def _read_relations(card: ContactCard, row: dict) -> set[str]:
    used = set()
    numbered = {}
    for column, cell in row.items():
        match = _RELATION_COLUMN.match(column)
        if match:
            numbered.setdefault(match.group(1), {})[match.group(2)] = cell.strip()
            used.add(column)
    for pair in numbered.values():
        _add(card, relation_label(pair.get("label") or pair.get("type") or ""), pair.get("value", ""))
    for column, label in OUTLOOK_RELATIONS.items():
        if column in row:
            used.add(column)
            for name in re.split(r"[;,]", row[column]):
                _add(card, label, name.strip())
    return used


def _add(card: ContactCard, label: str | None, names: str) -> None:
    for name in _values(names):
        if label:
            card.related.append((label, name))
        else:
            card.skipped["other"] += 1


def _category(column: str) -> str:
    return next((category for word, category in _SKIP_WORDS if word in column), "other")
