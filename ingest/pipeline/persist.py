"""Stage 7, persist: write the message's decisions — runs inside the message's one transaction.

New memories go through `memory_create` (row, entity links, history, embedding
enqueued on commit per `memory_semantic.*`); reinforcements, pattern updates and
supersession go through their services (`memories/services.py`), as does the
single-valued relation edge. Every row carries the session id and the source
message id, and the words of a message that yielded a memory are kept as its
`SourceMessage` (the evidence a reviewer reads). A new memory already below the retrieval floor (an old transcript's
date) is expired at once and flagged in the trace. A candidate the auto-memory
policy refused (`policy.py`) is reported, not written.
"""
from entities.services import entity_name_correct, relation_upsert
from ingest.pipeline.base import Candidate, CandidateResult, IngestContext, Outcome, Stage, WorkItem
from memories.models import Memory, Status
from memories.services import (
    memories_mark_updated,
    memories_stating_the_old_value,
    memory_create,
    memory_pin,
    memory_reinforce,
    memory_supersede,
    name_respelt,
    pattern_update,
    relations_retire_stated_by,
    source_message_record,
)

# Edges a subject has one of at a time: a new object supersedes the old edge.
SINGLE_VALUED_PREDICATES = {"lives_in", "works_at"}


class Persist(Stage):
    name = "persist"

    def run(self, item: WorkItem, context: IngestContext) -> None:
        for candidate in item.candidates:
            if candidate.rejected:
                rejected = candidate.rejected
                item.results.append(_result(Outcome.REJECTED, rejected.stage, rejected.reason, candidate))
            else:
                item.results.append(self._write(candidate, item, context))
        source = _source_message(item, context)
        created = any(c.action == "create" and not c.rejected for c in item.candidates)
        if source and not created and any(result.memory_id for result in item.results):
            source_message_record(user_id=context.user_id, **source)  # a new memory's insert kept it already

    def _write(self, candidate: Candidate, item: WorkItem, context: IngestContext) -> CandidateResult:
        message = item.message
        if candidate.action == "reinforce":
            memory = memory_reinforce(memory=candidate.existing, session_id=context.session_id,
                                      message_id=message.id, at=message.timestamp)
            if memory:
                if candidate.pinned and context.explicit and not memory.pinned:  # "remember this, and pin it"
                    memory_pin(memory=memory, actor=context.actor)
                return _result(Outcome.REINFORCED, "reconcile", "near_duplicate", candidate, memory)
            candidate.action = "create"  # what it repeated was forgotten meanwhile: it is new again
        if candidate.action == "pattern":
            memory = pattern_update(memory=candidate.existing, details=candidate.details,
                                    confidence=candidate.confidence, promoted=not candidate.needs_review,
                                    session_id=context.session_id, message_id=message.id)
            outcome = Outcome.REVIEW if memory.needs_review else Outcome.REINFORCED
            return _result(outcome, "infer", "pattern_repeated", candidate, memory)
        memory = self._create(candidate, item, context)
        for old in candidate.supersedes:
            memory_supersede(old=old, new=memory, at=message.timestamp)
        if candidate.supersedes:
            relations_retire_stated_by(user_id=context.user_id, memory_ids=[old.pk for old in candidate.supersedes],
                                       at=message.timestamp)
        kept_beside = set(candidate.details.get("updates", ())) - {old.pk for old in candidate.supersedes}
        if candidate.supersedes:
            kept_beside.update(memories_stating_the_old_value(
                superseded=candidate.supersedes, new=memory, takes_back=bool(candidate.details.get("takes_back"))))
        if kept_beside:
            memories_mark_updated(memory_ids=sorted(kept_beside), by=memory)
        self._write_relation(candidate, context, message.timestamp, message.id)
        if fix := candidate.details.get("corrects_name"):
            _name_corrected(context, *fix)
        if candidate.supersedes:
            result = _result(Outcome.SUPERSEDED, "reconcile", f"new_value:{candidate.attribute or 'measure'}",
                             candidate, memory, [old.pk for old in candidate.supersedes])
        elif memory.needs_review:
            result = _result(Outcome.REVIEW, self.name, memory.review_reason, candidate, memory)
        else:
            result = _result(Outcome.STORED, self.name, "created", candidate, memory)
        result.expired = memory.status == Status.EXPIRED
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
                             content=candidate.content, entities=list(links.values()), expire_if_faded=True,
                             source_message=_source_message(item, context), **fields)

    def _write_relation(self, candidate: Candidate, context: IngestContext, at, message_id: str) -> None:
        spec = candidate.relation
        if not spec or not (spec.subject.entity and spec.object.entity) or spec.subject.entity == spec.object.entity:
            return
        relation_upsert(subject=spec.subject.entity, predicate=spec.predicate, object=spec.object.entity,
                        confidence=candidate.confidence, session_id=context.session_id, valid_from=at,
                        source_message_id=message_id, single_valued=spec.predicate in SINGLE_VALUED_PREDICATES)


def _name_corrected(context: IngestContext, wrong: str, right: str) -> None:
    """"Sorry, I meant Anna, not Anne": the entity called Anne is Anna, and so are the memories that named her."""
    entity = entity_name_correct(user_id=context.user_id, wrong=wrong, right=right)
    if entity is not None:
        name_respelt(user_id=context.user_id, entity_id=entity.pk, wrong=wrong, right=right, actor=context.actor)


def _source_message(item: WorkItem, context: IngestContext) -> dict | None:
    """The message's words as its memories' evidence (`source_message_record`'s fields), if it has an id."""
    message = item.message
    if not message.id:
        return None
    return {"session_id": context.session_id, "message_id": message.id, "speaker": message.speaker or message.role,
            "text": message.content, "at": message.timestamp}


def _result(outcome, stage, reason, candidate, memory=None, superseded_ids=()) -> CandidateResult:
    confidence = round(memory.confidence if memory else candidate.confidence, 4)
    return CandidateResult(
        outcome=outcome, stage=stage, reason=reason, type=candidate.type, content=candidate.content,
        confidence=confidence, score=confidence,
        memory_id=memory.pk if memory else None, domain=candidate.domain, superseded_ids=list(superseded_ids),
    )
