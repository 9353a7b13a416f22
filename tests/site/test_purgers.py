"""One deletion engine: every table that holds a user's rows or points at a memory or an entity has a
purger (or is declared kept, with why), and every delete path goes through it."""
from django.apps import apps
from django_q.models import OrmQ

from entities.models import Entity
from memories.models import Memory, TurnInjection
from memories.review.services import memory_reject
from memories.services import memory_forget
from recall_site.purging import registered
from tests import factories
from tests.forgetting.conftest import queue_embedding_task

OUR_APPS = ("access", "audit", "entities", "memories", "forgetting", "metrics")


def holds_user_rows(model) -> bool:
    fields = model._meta.get_fields()
    return any(f.name == "user_id" for f in fields) or any(
        getattr(f, "related_model", None) in (Memory, Entity) and f.many_to_one for f in fields)


def test_every_table_with_user_rows_has_a_purger_or_says_why_it_stays():
    covered = {model for purger in registered() for model in (*purger.models, *purger.kept)}
    tables = [model for app in OUR_APPS for model in apps.get_app_config(app).get_models() if holds_user_rows(model)]
    assert tables and [model.__name__ for model in tables if model not in covered] == []


def test_purgers_run_memories_before_the_entities_they_point_at():
    order = [type(purger).__name__ for purger in registered()]
    assert order.index("MemoryPurger") < order.index("EntityPurger")


def test_forgetting_one_memory_leaves_no_id_in_injections_or_queued_tasks(db):
    kept = factories.memory(content="likes black tea")
    gone = factories.memory(content="door code is 4711")
    TurnInjection.objects.create(user_id="alice", session_id="s9", memory_ids=[kept.pk, gone.pk])
    task = queue_embedding_task([gone.pk])
    counts = memory_forget(memory=gone, actor="alice")
    assert counts["memories"] == 1 and counts["queued_tasks"] == 1
    assert list(TurnInjection.objects.values_list("memory_ids", flat=True)) == [[kept.pk]]
    assert not OrmQ.objects.filter(pk=task.pk).exists()


def test_a_review_rejection_goes_through_the_same_engine(db):
    sarah = factories.person(name="Sarah Chen")
    memory = factories.memory(content="Sarah might be moving", entities=[sarah], needs_review=True)
    Entity.objects.filter(pk=sarah.pk).update(centroid=[0.1] * 384)
    memory_reject(memory=memory, actor="alice")
    assert not Memory.objects.filter(pk=memory.pk).exists()
    assert Entity.objects.get(pk=sarah.pk).centroid is None  # recomputed by the drift task without it
