"""The audit app's part of every deletion (recall_site/purging.py): earlier free-text reasons that name a
forgotten person are redacted. Events themselves stay (ids and counts only, purged after
`audit.retention_days`)."""
from audit.models import AuditEvent
from recall_site.purging import PurgePlan, Purger
from recall_site.redaction import redact, sql_word_pattern


class AuditPurger(Purger):
    models = (AuditEvent,)
    order = 90

    def count(self, plan: PurgePlan) -> dict[str, int]:
        return {}

    def execute(self, plan: PurgePlan) -> dict[str, int]:
        if plan.terms:
            for event in AuditEvent.objects.filter(user_id=plan.user_id, reason__iregex=sql_word_pattern(plan.terms)):
                AuditEvent.objects.filter(pk=event.pk).update(reason=redact(event.reason, plan.terms))
        return {}
