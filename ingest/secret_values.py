"""Secrets out of what is said, before any of it is stored: a password, PIN or key given with its value, a
payment card number, a US social security number.

An assistant hears them ("my password for the bank is hunter2", a card number pasted into a chat); a memory
service that keeps every turn must not keep those. Each value becomes a marker ("[redacted]", "[card number]")
at the door (the ingest API, before a background job stores its messages, and parse_messages for every other
caller), so no memory, sentence vector, job payload or export holds it, while the rest of the message ("has a
password for the bank") is kept as usual.
"""
import re

from recall_site.redaction import REDACTED

CARD = "[card number]"
ID_NUMBER = "[id number]"

# "password … is X", "PIN: X", "api key = X", "the door code is X": the word, up to 40 characters of the same
# clause, then the value.
_CREDENTIAL = re.compile(
    # "PIN" in capitals, or "pin code": "pin this for later" is Recall's own verb.
    r"\b(?P<what>passwords?|passcodes?|passphrases?|(?-i:PINs?)|pin (?:codes?|numbers?)|api (?:keys?|tokens?)|"
    r"secret keys?|client secrets?|access tokens?|auth tokens?|bearer tokens?|security codes?|cvv|cvc|"
    r"(?:door|gate|alarm|garage|lock|locker|safe|entry) codes?)\b"
    r"(?P<between>[^.!?\n:=]{0,40}?)(?P<sep>\s*(?::|=|\bis\b|\bare\b|\bwas\b)\s*)"
    r"(?P<value>\"[^\"\n]+\"|'[^'\n]+'|`[^`\n]+`|[^\s,;]+)", re.IGNORECASE)
# A new value set: "changed the wifi password to bluemoon7", "reset my PIN to 4471".
_CHANGED_CREDENTIAL = re.compile(
    r"\b(?P<what>(?:changed|set|reset|updated|switched)\s+(?:the |my |our )?(?:[\w-]+ )?(?:passwords?|passcodes?|"
    r"(?-i:PINs?)|pin (?:codes?|numbers?)|(?:door|gate|alarm|garage|lock|locker|safe|entry) codes?))"
    r"(?P<between>)(?P<sep>\s+to\s+)(?P<value>\"[^\"\n]+\"|'[^'\n]+'|`[^`\n]+`|[^\s,;]+)", re.IGNORECASE)
# Words that follow "my password is" without being one: "my password is in the drawer", "… is the same".
_NOT_A_VALUE = frozenset(
    "in on at the a an my your his her our their not still written saved stored kept somewhere same different "
    "wrong correct right too very so also now changed expired easy hard long short secure strong weak "
    "reset required needed due something one be use include make match".split())
# Keys whose form gives them away wherever they stand.
_KEY = re.compile(r"\b(?:sk|pk|rk)-[A-Za-z0-9_-]{16,}|\bgh[pousr]_[A-Za-z0-9]{20,}|\bAKIA[0-9A-Z]{16}\b|"
                  r"\bxox[abprs]-[A-Za-z0-9-]{10,}")
_CARD_DIGITS = re.compile(r"(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])")
_SSN = re.compile(r"\b\d{3}-\d{2}-\d{4}\b")


def without_secrets(text: str) -> str:
    """`text` with every secret value replaced by its marker (unchanged when it holds none)."""
    text = _CREDENTIAL.sub(_credential, text)
    text = _CHANGED_CREDENTIAL.sub(_credential, text)
    text = _KEY.sub(REDACTED, text)
    text = _CARD_DIGITS.sub(lambda match: CARD if _luhn_valid(match.group()) else match.group(), text)
    return _SSN.sub(ID_NUMBER, text)


def _credential(match: re.Match) -> str:
    value = match.group("value")
    core = value if value[0] in "\"'`" else value.rstrip(".!?)")
    if core.lower() in _NOT_A_VALUE or core == REDACTED:
        return match.group()
    return f"{match.group('what')}{match.group('between')}{match.group('sep')}{REDACTED}{value[len(core):]}"


def _luhn_valid(number: str) -> bool:
    """The payment card check digit holds (so an order number or a phone number is left alone)."""
    digits = [int(d) for d in number if d.isdigit()]
    total = sum(d if i % 2 == 0 else (d * 2 - 9 if d > 4 else d * 2) for i, d in enumerate(reversed(digits)))
    return total % 10 == 0
