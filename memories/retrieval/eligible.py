"""Which memories a search may see at all: the user's own, active, in scope, and past the gate."""
from django.db.models import QuerySet

from memories.models import Memory
from memories.retrieval.gating import Gate


def eligible_memories(*, user_id: str, session_id: str | None, gate: Gate, types=None) -> QuerySet:
    """Active, confirmed memories of `user_id` visible in the session, in the gate's domains and confidence.

    Superseded and expired rows are out (status), as are memories still awaiting
    review; session_local rows only appear inside their own session; sensitive
    rows need the sensitive confidence floor regardless of the filters.
    """
    queryset = (
        Memory.objects.for_user(user_id).active().visible_in_session(session_id)
        .filter(needs_review=False, domain__in=gate.domains, confidence__gte=gate.min_confidence)
        .exclude(sensitive=True, confidence__lt=gate.sensitive_min_confidence)
    )
    if types:
        queryset = queryset.filter(type__in=list(types))
    return queryset
