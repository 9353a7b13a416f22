"""Read vCard 3.0/4.0 exports (phones, Google, Apple, Outlook) into ContactCards.

vobject's tokenizer does the line unfolding, parameter parsing and text
unescaping; the card structure is walked here so that (a) every error names the
real line and card, and (b) list-valued text such as NICKNAME:Sally,Sal keeps all
its values (vobject's default behaviour keeps only the first).
"""
import io
import quopri

from vobject.base import ParseError, getLogicalLines, parseLine
from vobject.icalendar import stringToTextValues
from vobject.vcard import splitFields

from entities.contacts.cards import ContactCard, ContactsFormatError, file_as_name, relation_label

SKIPPED_PROPERTIES = {
    "TEL": "phone", "EMAIL": "email", "ADR": "address", "LABEL": "address", "GEO": "address",
    "BDAY": "birthday", "ANNIVERSARY": "birthday", "X-ANNIVERSARY": "birthday", "DEATHDATE": "birthday",
    "PHOTO": "photo", "LOGO": "photo",
}
# Bookkeeping lines: neither personal data nor anything resolution needs.
METADATA_PROPERTIES = {"VERSION", "PRODID", "REV", "X-ABUID", "CLASS", "SOURCE", "KIND", "X-ABLABEL",
                       "X-ABSHOWAS", "SORT-STRING", "X-PHONETIC-FIRST-NAME", "X-PHONETIC-LAST-NAME"}


class _RawCard:
    def __init__(self, number: int, line: int):
        self.number, self.line, self.properties = number, line, []

    def describe(self) -> str:
        names = [value for name, _p, value, _g, _l in self.properties if name == "FN"]
        label = f" ({_text(names[0])!r})" if names else ""
        return f"card {self.number}{label}, starting at line {self.line}"


def read_vcards(text: str) -> list[ContactCard]:
    raw_cards, current = [], None
    for line, number in getLogicalLines(io.StringIO(text)):
        try:
            name, params, value, group = parseLine(line, number)
        except ParseError:
            where = f" in {current.describe()}" if current else ""
            raise ContactsFormatError(f"Line {number}{where}: cannot read {line[:60]!r}.") from None
        name = name.upper()
        if name == "BEGIN" and value.strip().upper() == "VCARD":
            if current:
                raise ContactsFormatError(f"Line {number}: {current.describe()} has no END:VCARD.")
            current = _RawCard(len(raw_cards) + 1, number)
        elif name == "END" and value.strip().upper() == "VCARD":
            if not current:
                raise ContactsFormatError(f"Line {number}: END:VCARD without a BEGIN:VCARD.")
            raw_cards.append(current)
            current = None
        elif not current:
            raise ContactsFormatError(f"Line {number}: {name} is outside a BEGIN:VCARD … END:VCARD card.")
        else:
            current.properties.append((name, _params(params), value, (group or "").lower(), number))
    if current:
        raise ContactsFormatError(f"End of file: {current.describe()} has no END:VCARD.")
    if not raw_cards:
        raise ContactsFormatError("No BEGIN:VCARD found: this is not a vCard file.")
    return [_card(raw) for raw in raw_cards]


def _params(parsed) -> dict[str, list[str]]:
    params = {}
    for name, *values in parsed:
        if not values:  # vCard 2.1 bare parameter, e.g. TEL;CELL:
            name, values = "TYPE", [name]
        params.setdefault(name.upper(), []).extend(v for value in values for v in value.split(","))
    return params


def _decoded(params, value: str) -> str:
    if any(v.upper() in ("QUOTED-PRINTABLE", "QP") for v in params.get("ENCODING", [])):
        charset = (params.get("CHARSET") or ["utf-8"])[0]
        return quopri.decodestring(value.encode("utf-8")).decode(charset, errors="replace")
    return value


def _text(value: str) -> str:
    return ", ".join(stringToTextValues(value)).strip()


def _card(raw: _RawCard) -> ContactCard:
    card = ContactCard(where=raw.describe())
    labels = {group: relation_label(_text(value)) for name, _p, value, group, _l in raw.properties
              if name == "X-ABLABEL" and group}
    for name, params, value, group, _line in raw.properties:
        value = _decoded(params, value)
        if name == "FN":
            card.display_name = _text(value)
        elif name == "N":
            _read_structured_name(card, value)
        elif name == "NICKNAME":
            card.nicknames += [nick.strip() for nick in stringToTextValues(value) if nick.strip()]
        elif name in ("X-FILE-AS", "X-EVOLUTION-FILE-AS"):
            card.file_as = file_as_name(_text(value))
        elif name == "ORG":
            card.organisation = _first(splitFields(value))
        elif name == "UID":
            card.uid = _uid(value)
        elif name == "RELATED":
            _read_related(card, params, value)
        elif name == "X-ABRELATEDNAMES":
            _add_related(card, labels.get(group), _text(value))
        elif name in ("X-ABSHOWAS", "KIND"):
            card.is_organisation = card.is_organisation or value.strip().upper() in ("COMPANY", "ORG")
        elif name in SKIPPED_PROPERTIES:
            card.skipped[SKIPPED_PROPERTIES[name]] += 1
        elif name not in METADATA_PROPERTIES:
            card.skipped["other"] += 1
    return card


def _read_structured_name(card: ContactCard, value: str) -> None:
    fields = splitFields(value) + [""] * 5
    card.family_name, card.given_name, card.prefix = _first(fields[0]), _first(fields[1]), _first(fields[3])


def _uid(value: str) -> str:
    text = value.strip()
    return text[len("urn:uuid:"):] if text.lower().startswith("urn:uuid:") else text


def _first(field_value) -> str:
    if isinstance(field_value, list):
        field_value = field_value[0] if field_value else ""
    return (field_value or "").strip()


def _read_related(card: ContactCard, params, value: str) -> None:
    label = next((relation_label(t) for t in params.get("TYPE", []) if relation_label(t)), None)
    text = value.strip()
    if text.lower().startswith("urn:uuid:"):
        if label:
            card.related_uids.append((label, _uid(text)))
        else:
            card.skipped["other"] += 1
    elif ":" in text and text.split(":", 1)[0].lower() in ("mailto", "tel", "http", "https", "sip", "xmpp"):
        card.skipped["other"] += 1  # a link to a mailbox or phone, not a name
    else:
        _add_related(card, label, _text(value))


def _add_related(card: ContactCard, label: str | None, name: str) -> None:
    if label and name:
        card.related.append((label, name))
    else:
        card.skipped["other"] += 1
