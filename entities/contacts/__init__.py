"""Alias bootstrapping from the user's contacts (vCard 3.0/4.0, Google/Outlook CSV).

`import_contacts(*, user_id, data, filename, actor, self_card="")` → ImportSummary.
"""
from entities.contacts.cards import ContactsFormatError
from entities.contacts.importer import ImportSummary, import_contacts

__all__ = ["ContactsFormatError", "ImportSummary", "import_contacts"]
