"""Stage 7, persist: write the message's decisions — runs inside the message's one transaction.

New memories go through `memory_create` (row, entity links, history, embedding
enqueued on commit per `memory_semantic.*`); reinforcements bump occurrences,
confidence (+`memory.reinforce_confidence_step`, capped at 0.99) and
last_reinforced_at; supersession retires the old value (status superseded,
superseded_by, valid_to) and its single-valued relation edge. Every row carries the
session id and the source message id. Auto-reflection policy (`policy.py`) is
applied to new memories here. A new memory already below the retrieval floor (an
old transcript's date) is expired at once and flagged in the trace.
"""
from django.db.models import F
from django.utils import timezone

from entities.services import relation_supersede_others, relation_upsert
from memories.decay import memory_freshness
from memories.expiry import memories_mark_expired
from memories.models import Memory, Status
from memories.pipeline.base import Candidate, CandidateResult, IngestContext, Outcome, Rejected, Stage, WorkItem
from memories.pipeline.policy import apply_auto_memory_policy
from memories.services import history_record, memory_create
from recall_site.config import recall_setting

MAX_CONFIDENCE = 0.99
# Edges a subject has one of at a time: a new object supersedes the old edge.
SINGLE_VALUED_PREDICATES = {"lives_in", "works_at"}


def memory_reinforce(*, memory: Memory, session_id: str, message_id: str = "", at=None) -> Memory | None:
    """The user said it again: occurrences + 1, confidence up, last_reinforced_at, history "reinforced".
    None when the memory is gone (deleted since reconcile found it)."""
    step = recall_setting("memory.reinforce_confidence_step")
    ids = [message_id] if message_id and message_id not in memory.source_message_ids else []
    memory.confidence = min(round(memory.confidence + step, 4), MAX_CONFIDENCE)
    memory.last_reinforced_at = at or memory.last_reinforced_at
    memory.source_message_ids = memory.source_message_ids + ids
    updated = Memory.objects.filter(pk=memory.pk).update(
        occurrences=F("occurrences") + 1, confidence=memory.confidence,
        last_reinforced_at=memory.last_reinforced_at, source_message_ids=memory.source_message_ids,
    )
    if not updated:
        return None
    memory.occurrences += 1
    history_record(memory, "reinforced", session_id=session_id)
    return memory


def memory_expire_on_arrival(memory: Memory) -> bool:
    """Expire a new memory whose own date already puts it below the retrieval floor (a message from a transcript
    years old): it is kept for the recovery window like any expired memory, and the trace counts it, so an
    import of old conversations does not look like a success that search then cannot find."""
    now = timezone.now()
    if memory_freshness(memory, now) >= recall_setting("decay.retrieval_floor"):
        return False
    return bool(memories_mark_expired([memory.pk], now))


def memory_supersede(*, old: Memory, new: Memory, at) -> None:
    Memory.objects.filter(pk=old.pk).update(status=Status.SUPERSEDED, superseded_by=new, valid_to=at)
    history_record(old, "superseded", session_id=new.session_id, related_memory_id=new.pk)


def pattern_update(*, memory: Memory, candidate: Candidate, session_id: str, message_id: str) -> Memory:
    """Another session showed the behaviour: raise confidence; leave review only once promoted."""
    memory.details = {**memory.details, **candidate.details}
    memory.occurrences = candidate.details["occurrences"]
    memory.confidence = max(memory.confidence, candidate.confidence)
    if not candidate.needs_review and memory.needs_review:
        memory.needs_review, memory.review_reason = False, ""
    if message_id and message_id not in memory.source_message_ids:
        memory.source_message_ids = memory.source_message_ids + [message_id]
    memory.save(update_fields=["details", "occurrences", "confidence", "needs_review", "review_reason",
                               "source_message_ids", "updated_at"])
    history_record(memory, "promoted" if not memory.needs_review else "reinforced", session_id=session_id)
    return memory


class Persist(Stage):
    name = "persist"

    def run(self, item: WorkItem, context: IngestContext) -> None:
        for candidate in item.candidates:
            try:
                item.results.append(self._write(candidate, item, context))
            except Rejected as rejected:
                item.results.append(_result(Outcome.REJECTED, rejected.stage, rejected.reason, candidate))

    def _write(self, candidate: Candidate, item: WorkItem, context: IngestContext) -> CandidateResult:
        message = item.message
        if candidate.action == "reinforce":
            memory = memory_reinforce(memory=candidate.existing, session_id=context.session_id,
                                      message_id=message.id, at=message.timestamp)
            if memory:
                return _result(Outcome.REINFORCED, "reconcile", "near_duplicate", candidate, memory)
            candidate.action = "create"  # what it repeated was forgotten meanwhile: it is new again
        if candidate.action == "pattern":
            memory = pattern_update(memory=candidate.existing, candidate=candidate, session_id=context.session_id,
                                    message_id=message.id)
            outcome = Outcome.REVIEW if memory.needs_review else Outcome.REINFORCED
            return _result(outcome, "infer", "pattern_repeated", candidate, memory)
        apply_auto_memory_policy(candidate, context)
        memory = self._create(candidate, item, context)
        expired = memory_expire_on_arrival(memory)
        for old in candidate.supersedes:
            memory_supersede(old=old, new=memory, at=message.timestamp)
        self._write_relation(candidate, context, message.timestamp)
        if candidate.supersedes:
            result = _result(Outcome.SUPERSEDED, "reconcile", f"new_value:{candidate.attribute}", candidate, memory,
                             [old.pk for old in candidate.supersedes])
        elif memory.needs_review:
            result = _result(Outcome.REVIEW, self.name, memory.review_reason, candidate, memory)
        else:
            result = _result(Outcome.STORED, self.name, "created", candidate, memory)
        result.expired = expired
        return result

    def _create(self, candidate: Candidate, item: WorkItem, context: IngestContext) -> Memory:
        links = {m.entity.pk: (m.entity, m.role) for m in candidate.mentions if m.entity}
        fields = {
            "domain": candidate.domain, "sensitive": candidate.sensitive, "confidence": candidate.confidence,
            "importance": candidate.importance, "needs_review": candidate.needs_review,
            "review_reason": candidate.review_reason, "pinned": candidate.pinned, "scope": candidate.scope,
            "source": candidate.source or context.source, "attribute": candidate.attribute,
            "subject": candidate.subject.entity if candidate.subject else None, "details": candidate.details,
            "valid_from": candidate.valid_from, "last_reinforced_at": item.message.timestamp,
            "source_message_ids": [item.message.id] if item.message.id else [],
        }
        if candidate.half_life_days:
            fields["half_life_days"] = candidate.half_life_days
        return memory_create(user_id=context.user_id, session_id=context.session_id, type=candidate.type,
                             content=candidate.content, entities=list(links.values()), **fields)

    def _write_relation(self, candidate: Candidate, context: IngestContext, at) -> None:
        spec = candidate.relation
        if not spec or not (spec.subject.entity and spec.object.entity) or spec.subject.entity == spec.object.entity:
            return
        if spec.predicate in SINGLE_VALUED_PREDICATES:
            relation_supersede_others(subject=spec.subject.entity, predicate=spec.predicate, keep=spec.object.entity,
                                      at=at)
        relation_upsert(subject=spec.subject.entity, predicate=spec.predicate, object=spec.object.entity,
                        confidence=candidate.confidence, session_id=context.session_id, valid_from=at)


def _result(outcome, stage, reason, candidate, memory=None, superseded_ids=()) -> CandidateResult:
    return CandidateResult(
        outcome=outcome, stage=stage, reason=reason, type=candidate.type, content=candidate.content,
        score=round(memory.confidence if memory else candidate.confidence, 4),
        memory_id=memory.pk if memory else None, domain=candidate.domain, superseded_ids=list(superseded_ids),
    )

