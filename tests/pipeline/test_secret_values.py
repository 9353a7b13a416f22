"""Secret values said in a message are replaced before anything is stored (ingest/secret_values.py)."""
import pytest

from ingest.secret_values import without_secrets


@pytest.mark.parametrize("said, kept", [
    ("My password for the bank is hunter2.", "My password for the bank is [redacted]."),
    ("my pin code: 9921", "my pin code: [redacted]"),
    ('The passwords are "abc 123" and more', "The passwords are [redacted] and more"),
    ("api key = AKIAABCDEFGHIJKLMNOP", "api key = [redacted]"),
    ("token ghp_0123456789abcdefghijABCDEFGHIJ here", "token [redacted] here"),
    ("Card 4111-1111-1111-1111 expires soon", "Card [card number] expires soon"),
    ("SSN 123-45-6789", "SSN [id number]"),
    ("Changed the wifi password to bluemoon7", "Changed the wifi password to [redacted]"),
    ("The door code is 4471, New door code: 9921", "The door code is [redacted], New door code: [redacted]"),
])
def test_secret_values_are_replaced(said, kept):
    assert without_secrets(said) == kept


@pytest.mark.parametrize("said", [
    "My password is in the drawer", "Reset my password tomorrow", "pin this for later: Friday launch",
    "Call me at 555 123 4567", "Order 1234 5678 9012 3456", "I was born in 1985 and have 2 kids",
    "I changed my password yesterday, it was weak", "I changed my password to something harder",
])
def test_what_only_mentions_a_secret_or_holds_other_numbers_stays(said):
    assert without_secrets(said) == said
