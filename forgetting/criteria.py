"""What a deletion request asks for (`DeleteCriteria`), why (`reason_category`), and the two ways it can be
refused: criteria that describe nothing we can do (400) and ids that are not this user's (404)."""
from dataclasses import asdict, dataclass, field
from datetime import datetime

from audit.labels import ForgetReason


def reason_category(reason: str) -> str:
    """A category code given as the reason is kept; any other text becomes `user_request`."""
    code = (reason or "").strip().lower()
    return code if code in ForgetReason.values else ForgetReason.USER_REQUEST


class DeleteRequestError(ValueError):
    """The criteria do not describe a deletion we can do (→ 400)."""


class UnknownTargetError(LookupError):
    """An entity or memory id is not one of this user's (→ 404; no existence leak)."""


@dataclass
class DeleteCriteria:
    entity_refs: list[str] = field(default_factory=list)
    source_session: list[str] = field(default_factory=list)
    memory_ids: list[int] = field(default_factory=list)
    types: list[str] = field(default_factory=list)
    before: datetime | None = None

    def validate(self) -> None:
        if not (self.entity_refs or self.source_session or self.memory_ids or self.types or self.before):
            raise DeleteRequestError("Give at least one of entity_refs, source_session, memory_ids, types, before.")
        if self.entity_refs and (self.types or self.before):
            raise DeleteRequestError("types/before cannot narrow an entity forget: everything about her goes.")

    def kind(self) -> str:
        """What is forgotten, in one word: entity, session, memory or filter."""
        return ("entity" if self.entity_refs else "session" if self.source_session else
                "memory" if self.memory_ids else "filter")

    def scope_ids(self) -> dict:
        scope = {k: v for k, v in asdict(self).items() if v and k != "before"}
        if self.before:
            scope["before"] = self.before.isoformat()
        return scope
