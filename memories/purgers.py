"""The memories app's part of every deletion (recall_site/purging.py): memories, their entity links,
sentence vectors (theirs, and those later memories inherited from them) and history, the source messages
no remaining memory names (and all of a forgotten session's), supersession links pointing at them,
per-turn injection records, the sessions' dialogue state (all of the user's when a person is forgotten:
she may have been a speaker), queued embedding tasks, the centroids of other entities that averaged their
embeddings, and profile entries naming a forgotten person; and background ingest jobs (`IngestJobPurger`).
"""
from django.db import connection
from django.db.models import BooleanField, Q, TextField
from django.db.models.expressions import RawSQL
from django.db.models.functions import Cast
from django_q.models import OrmQ

from entities.models import Entity
from memories.embedding_jobs import EMBED_MEMORIES_TASK
from memories.inherited_vectors import inherited_vectors_dropped
from memories.models import (
    IngestJob,
    Memory,
    MemoryEntity,
    MemoryHistory,
    MemorySentence,
    SessionDialogue,
    SourceMessage,
    TurnInjection,
    UserProfile,
)
from recall_site.purging import PurgePlan, Purger, id_array, sql_delete
from recall_site.redaction import REDACTED, mentions_any, sql_word_pattern

# Queued tasks whose first argument is a list of memory ids.
MEMORY_ID_TASKS = {EMBED_MEMORIES_TASK}


class MemoryPurger(Purger):
    models = (Memory, MemoryEntity, MemoryHistory, MemorySentence, SessionDialogue, SourceMessage, TurnInjection,
              UserProfile)
    order = 10  # before entities: links and memories point at them

    def count(self, plan: PurgePlan) -> dict[str, int]:
        ids = plan.memory_ids
        return {
            "memories": len(ids),
            "memory_entity_links": MemoryEntity.objects.filter(memory_id__in=id_array(ids)).count(),
            "memory_history": MemoryHistory.objects.filter(memory_id__in=id_array(ids)).count(),
            "memory_sentences": MemorySentence.objects.filter(
                Q(memory_id__in=id_array(ids)) | Q(user_id=plan.user_id, inherited_from__in=id_array(ids))).count(),
            "source_messages": _source_messages(plan, delete=False),
            "superseded_links_cleared": _superseding_others(ids, clear=False),
            "turn_injections": _turn_injections(plan).count(),
            "session_dialogues": _session_dialogues(plan).count(),
            "queued_tasks": len(_queued_task_ids(set(ids))),
        }

    def execute(self, plan: PurgePlan) -> dict[str, int]:
        ids = plan.memory_ids
        _clear_shared_centroids(ids, plan.entity_ids)  # while the links still say who shared them
        counts = {
            "superseded_links_cleared": _superseding_others(ids, clear=True),
            "turn_injections": _forget_turn_injections(plan),
            "session_dialogues": _session_dialogues(plan).delete()[0],
            "queued_tasks": OrmQ.objects.filter(pk__in=_queued_task_ids(set(ids))).delete()[0],
            "memory_history": sql_delete(MemoryHistory, "memory_id", ids),
            "memory_sentences": (sql_delete(MemorySentence, "memory_id", ids)
                                 + inherited_vectors_dropped(plan.user_id, ids)),
            "source_messages": _source_messages(plan, delete=True),
            "memory_entity_links": sql_delete(MemoryEntity, "memory_id", ids),
        }
        counts["memories"] = sql_delete(Memory, "id", ids)
        sql_delete(MemoryEntity, "entity_id", plan.entity_ids)
        if plan.terms:
            _redact_profile(plan.user_id, plan.terms)
        return counts


class IngestJobPurger(Purger):
    """Background ingest jobs (ingest/jobs.py), queued, running or done: those of a forgotten session
    and those whose waiting words or trace name a forgotten person go (a running one stops writing at its next
    message); a forgotten memory's content is scrubbed from the traces of the jobs that wrote it."""
    models = (IngestJob,)
    order = 11

    def count(self, plan: PurgePlan) -> dict[str, int]:
        return {"ingest_jobs": _forgotten_jobs(plan).count()}

    def execute(self, plan: PurgePlan) -> dict[str, int]:
        counts = {"ingest_jobs": _forgotten_jobs(plan).delete()[0]}
        _scrub_job_traces(plan.user_id, set(plan.memory_ids))
        return counts


def _forgotten_jobs(plan: PurgePlan):
    forgotten = Q(session_id__in=plan.sessions)
    if plan.text_terms:
        pattern = sql_word_pattern(plan.text_terms)
        forgotten |= Q(said__iregex=pattern) | Q(written__iregex=pattern) | Q(traced__iregex=pattern)
    return IngestJob.objects.filter(user_id=plan.user_id).alias(
        said=Cast("messages", TextField()), written=Cast("progress", TextField()),
        traced=Cast("result", TextField())).filter(forgotten)


def _scrub_job_traces(user_id: str, memory_ids: set[int]) -> None:
    if not memory_ids:
        return
    # One array parameter (`memory_ids__overlap=` would compile one per id: 200 ms for 10k ids).
    written = RawSQL("memory_ids && %s::bigint[]", [list(memory_ids)], output_field=BooleanField())
    for job in IngestJob.objects.filter(written, user_id=user_id):
        job.progress = {position: _scrubbed(entry, memory_ids) for position, entry in job.progress.items()}
        if job.result:
            job.result["messages"] = [_scrubbed(entry, memory_ids) for entry in job.result["messages"]]
        job.memory_ids = [pk for pk in job.memory_ids if pk not in memory_ids]
        job.save(update_fields=["progress", "result", "memory_ids"])


def _scrubbed(entry: dict, memory_ids: set[int]) -> dict:
    results = [{**result, "content": REDACTED} if result["memory_id"] in memory_ids else result
               for result in entry["results"]]
    return {**entry, "results": results}


def _superseding_others(memory_ids: list[int], *, clear: bool) -> int:
    """Kept memories whose superseded_by points at a deleted one: count them, or clear the link."""
    if not memory_ids:
        return 0
    table = Memory._meta.db_table
    where = "superseded_by_id = ANY(%s) AND NOT (id = ANY(%s))"
    with connection.cursor() as cursor:
        if clear:
            cursor.execute(f'UPDATE "{table}" SET superseded_by_id = NULL WHERE {where}', [memory_ids, memory_ids])
            return cursor.rowcount
        cursor.execute(f'SELECT count(*) FROM "{table}" WHERE {where}', [memory_ids, memory_ids])
        return cursor.fetchone()[0]


def _source_messages(plan: PurgePlan, *, delete: bool) -> int:
    """The user's source messages of the forgotten sessions, and those the plan's memories name that no other
    memory of the user names: count them, or delete them (before the memories go: one statement either way)."""
    if not (plan.memory_ids or plan.sessions):
        return 0
    memory, table = Memory._meta.db_table, SourceMessage._meta.db_table
    named = (f'WITH named AS (SELECT DISTINCT unnest(source_message_ids) AS message_id FROM "{memory}" '
             "WHERE id = ANY(%s)), "
             f'kept AS (SELECT unnest(source_message_ids) AS message_id FROM "{memory}" WHERE user_id = %s '
             "AND NOT (id = ANY(%s)) AND source_message_ids && ARRAY(SELECT message_id FROM named)::varchar[]) ")
    where = ("WHERE user_id = %s AND (session_id = ANY(%s) OR (message_id IN (SELECT message_id FROM named) "
             "AND message_id NOT IN (SELECT message_id FROM kept)))")
    ids = list(plan.memory_ids)
    params = [ids, plan.user_id, ids, plan.user_id, list(plan.sessions)]
    with connection.cursor() as cursor:
        if delete:
            cursor.execute(f'{named} DELETE FROM "{table}" {where}', params)
            return cursor.rowcount
        cursor.execute(f'{named} SELECT count(*) FROM "{table}" {where}', params)
        return cursor.fetchone()[0]


def _turn_injections(plan: PurgePlan):
    holding = RawSQL(f'SELECT id FROM "{TurnInjection._meta.db_table}" WHERE memory_ids && %s::bigint[]',
                     [plan.memory_ids])
    return TurnInjection.objects.filter(user_id=plan.user_id).filter(
        Q(session_id__in=plan.sessions) | Q(pk__in=holding))


def _forget_turn_injections(plan: PurgePlan) -> int:
    """Drop injections of forgotten sessions; cut deleted ids out of the rest (dropping emptied rows)."""
    injections = _turn_injections(plan)
    touched = injections.count()
    injections.filter(session_id__in=plan.sessions).delete()
    if plan.memory_ids:
        table = TurnInjection._meta.db_table
        with connection.cursor() as cursor:
            cursor.execute(
                f'UPDATE "{table}" SET memory_ids = ARRAY(SELECT x FROM unnest(memory_ids) x WHERE x <> ALL(%s)) '
                f"WHERE user_id = %s AND memory_ids && %s::bigint[]",
                [plan.memory_ids, plan.user_id, plan.memory_ids],
            )
            cursor.execute(f'DELETE FROM "{table}" WHERE user_id = %s AND cardinality(memory_ids) = 0',
                           [plan.user_id])
    return touched


def _session_dialogues(plan: PurgePlan):
    dialogues = SessionDialogue.objects.filter(user_id=plan.user_id)
    return dialogues if plan.terms else dialogues.filter(session_id__in=plan.sessions)


def _queued_task_ids(memory_ids: set[int]) -> list[int]:
    if not memory_ids:
        return []
    found = []
    for queued in OrmQ.objects.all():
        args = queued.args() or ()
        if queued.func() in MEMORY_ID_TASKS and args and _as_id_set(args[0]) & memory_ids:
            found.append(queued.pk)
    return found


def _as_id_set(value) -> set:
    return set(value) if isinstance(value, (list, tuple, set)) else {value}


def _clear_shared_centroids(memory_ids: list[int], forgotten: list[int]) -> None:
    """Other entities' centroids averaged deleted embeddings: clear them for the drift task to recompute."""
    if memory_ids:
        shared = MemoryEntity.objects.filter(memory_id__in=id_array(memory_ids)).exclude(entity_id__in=forgotten)
        Entity.objects.filter(pk__in=shared.values("entity_id")).update(centroid=None)


def _redact_profile(user_id: str, terms: list[str]) -> None:
    profile = UserProfile.objects.filter(user_id=user_id).first()
    if not profile:
        return
    kept = {name: {k: v for k, v in getattr(profile, name).items()
                   if not mentions_any(f"{k} {v}", terms)} for name in ("preferences", "favorites")}
    if any(kept[name] != getattr(profile, name) for name in kept):
        UserProfile.objects.filter(pk=profile.pk).update(**kept)
