"""What people read for the codes in the audit log (action names, forget reason categories), and counted
nouns ("1 memory")."""
from django.db import models


class ForgetReason(models.TextChoices):
    """Why a deletion was asked for. The audit log keeps only this category, never a request's own words."""
    USER_REQUEST = "user_request", "The user asked"
    CORRECTION = "correction", "Wrong or mistaken memory"
    RETENTION = "retention", "Retention policy"
    OTHER = "other", "Other"

class AuditAction(models.TextChoices):
    """What an audit event records; the label is what the console shows."""
    HARD_DELETE = "hard_delete", "Hard delete"
    FORGET_MEMORY = "forget_memory", "Memory forgotten"
    REVIEW_REJECT = "review_reject", "Memory rejected in review"
    PURGE_EXPIRED = "purge_expired", "Expired memories purged"
    MEMORY_APPROVE = "memory_approve", "Memory approved"
    MEMORY_UPDATE = "memory_update", "Memory edited"
    MEMORY_PIN = "memory_pin", "Memory pinned"
    MEMORY_UNPIN = "memory_unpin", "Memory unpinned"
    MEMORY_RESTORE = "memory_restore", "Memory restored"
    MEMORY_PERSON_CHOSEN = "memory_person_chosen", "Person chosen for a memory"
    INGEST = "ingest", "Messages ingested"
    UPDATE_USER_PROFILE = "update_user_profile", "Profile updated"
    ENTITY_MERGE = "entity_merge", "Entities merged"
    ENTITY_MERGE_DISMISSED = "entity_merge_dismissed", "Merge suggestion dismissed"
    ENTITY_ALIAS_ADD = "entity_alias_add", "Alias added"
    ENTITY_ALIAS_REMOVE = "entity_alias_remove", "Alias removed"
    ENTITY_REVIEW_CONFIRM = "entity_review_confirm", "Person confirmed"
    ENTITY_REVIEW_DISMISS = "entity_review_dismiss", "Person review dismissed"
    RELATION_CREATE = "relation_create", "Relation added"
    RELATION_DELETE = "relation_delete", "Relation removed"
    DRIFT_REBASELINE = "drift_rebaseline", "Drift accepted"
    CONTACTS_IMPORT = "contacts_import", "Contacts imported"
    CONSOLE_SWITCH_USER = "console_switch_user", "Console switched user"
    DATA_IMPORT = "data_import", "Data imported"


def action_label(action: str) -> str:
    """"memory_approve" → "Memory approved"; an unknown code reads as words ("new_thing" → "New thing")."""
    if action in AuditAction.values:
        return AuditAction(action).label
    return str(action).replace("_", " ").capitalize()


def plural(count: int, singular: str, plural_form: str = "") -> str:
    """1, "memory", "memories" → "1 memory"; 3 → "3 memories"; a regular noun needs no plural form."""
    return f"{count} {singular if count == 1 else plural_form or singular + 's'}"
