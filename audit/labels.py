"""What people read for the codes in the audit log (action names, forget reason categories), and counted
nouns ("1 memory")."""
from django.db import models


class ForgetReason(models.TextChoices):
    """Why a deletion was asked for. The audit log keeps only this category, never a request's own words."""
    USER_REQUEST = "user_request", "The user asked"
    CORRECTION = "correction", "Wrong or mistaken memory"
    RETENTION = "retention", "Retention policy"
    OTHER = "other", "Other"

ACTION_LABELS = {
    "hard_delete": "Hard delete",
    "forget_memory": "Memory forgotten",
    "review_reject": "Memory rejected in review",
    "purge_expired": "Expired memories purged",
    "memory_approve": "Memory approved",
    "memory_update": "Memory edited",
    "memory_pin": "Memory pinned",
    "memory_unpin": "Memory unpinned",
    "memory_restore": "Memory restored",
    "ingest": "Messages ingested",
    "update_user_profile": "Profile updated",
    "entity_merge": "Entities merged",
    "entity_merge_dismissed": "Merge suggestion dismissed",
    "entity_alias_add": "Alias added",
    "entity_alias_remove": "Alias removed",
    "entity_review_confirm": "Person confirmed",
    "entity_review_dismiss": "Person review dismissed",
    "relation_create": "Relation added",
    "relation_delete": "Relation removed",
    "drift_rebaseline": "Drift accepted",
    "contacts_import": "Contacts imported",
    "console_switch_user": "Console switched user",
}


def action_label(action: str) -> str:
    """"memory_approve" → "Memory approved"; an unknown code reads as words ("new_thing" → "New thing")."""
    return ACTION_LABELS.get(action) or str(action).replace("_", " ").capitalize()


def plural(count: int, singular: str, plural_form: str = "") -> str:
    """1, "memory", "memories" → "1 memory"; 3 → "3 memories"; a regular noun needs no plural form."""
    return f"{count} {singular if count == 1 else plural_form or singular + 's'}"
