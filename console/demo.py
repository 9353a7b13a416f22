"""A small demo data set for user `default`: Sarah Chen, her partner Alex, the user's manager.

So every console page has something to try: "Priya P." is a duplicate of Priya Patel for the merge page, and
two Toms (Tom Becker, Tom Nguyen) make "Tom" ambiguous, so a memory naming only "Tom" waits in review."""
from datetime import timedelta

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from access.models import UserIdGrant
from entities.models import AliasOrigin, Entity, EntityKind, EntityReview, EntityReviewKind
from entities.services import (
    alias_add,
    ambiguity_review_record,
    entity_create,
    mentions_record,
    relation_upsert,
    self_entity,
)
from memories.models import Memory
from memories.services import memory_create

DEMO_USER_ID = "default"


def ensure_demo_accounts() -> None:
    if not User.objects.filter(username="admin").exists():
        User.objects.create_superuser("admin", "admin@example.com", "admin")
    demo, created = User.objects.get_or_create(username="demo")
    if created:
        demo.set_password("demo")
        demo.save()
    UserIdGrant.objects.get_or_create(account=demo, user_id=DEMO_USER_ID)


@transaction.atomic
def load_demo_data() -> bool:
    """Create the demo graph and memories once. Returns False if they already exist."""
    ensure_demo_accounts()
    if Memory.objects.filter(user_id=DEMO_USER_ID).exists():
        return False
    now = timezone.now()
    user = DEMO_USER_ID
    me = self_entity(user)
    sarah = entity_create(user_id=user, name="Sarah Chen")
    alias_add(entity=sarah, alias="Sarah C.")
    alias_add(entity=sarah, alias="my college roommate", origin=AliasOrigin.ROLE)
    alex = entity_create(user_id=user, name="Alex")
    priya = entity_create(user_id=user, name="Priya Patel")
    alias_add(entity=priya, alias="my manager", origin=AliasOrigin.ROLE)
    priya_fragment = entity_create(user_id=user, name="Priya P.")  # a duplicate for the merge page
    toms = [entity_create(user_id=user, name=name) for name in ("Tom Becker", "Tom Nguyen")]
    acme = entity_create(user_id=user, name="Acme Corp", kind=EntityKind.ORG)
    volkswagen = entity_create(user_id=user, name="Volkswagen", kind=EntityKind.ORG)
    berlin = entity_create(user_id=user, name="Berlin", kind=EntityKind.PLACE)
    relation_upsert(subject=alex, predicate="partner_of", object=sarah)
    relation_upsert(subject=sarah, predicate="roommate_of", object=me)
    relation_upsert(subject=sarah, predicate="works_at", object=acme)
    relation_upsert(subject=priya, predicate="manager_of", object=me)
    relation_upsert(subject=priya_fragment, predicate="manager_of", object=me)
    relation_upsert(subject=me, predicate="works_at", object=volkswagen)
    relation_upsert(subject=me, predicate="lives_in", object=berlin)

    rows = [
        ("demo-1", "fact", "Lives in Berlin", "personal", [me, berlin], {"attribute": "residence", "subject": me}),
        ("demo-1", "fact", "Works at Volkswagen", "professional", [me, volkswagen], {"attribute": "employer", "subject": me}),
        ("demo-1", "preference", "Prefers morning meetings", "scheduling", [me], {"confidence": 0.65, "pinned": True}),
        ("demo-1", "preference", "Prefers concise answers", "personal", [me], {"pinned": True, "importance": 0.8}),
        ("demo-2", "event", "Lunch with Sarah on Thursday", "scheduling", [sarah],
         {"valid_from": now + timedelta(days=3)}),
        ("demo-2", "event", "Alex is worried about the apartment move to Hamburg", "relationship", [alex],
         {"sensitive": True}),
        ("demo-2", "fact", "Sarah works at Acme Corp", "professional", [sarah, acme], {}),
        ("demo-3", "event", "Quarterly review with Priya next Monday", "professional", [priya],
         {"valid_from": now + timedelta(days=7)}),
        ("demo-3", "fact", "Allergic to penicillin", "health", [me], {"sensitive": True, "importance": 0.9}),
        ("demo-3", "preference", "Seems to prefer no meetings on Monday mornings", "scheduling", [me],
         {"confidence": 0.35, "source": "inferred", "needs_review": True, "review_reason": "inferred"}),
        ("demo-3", "preference", "Likes flat white coffee", "personal", [me],
         {"source": "auto_reflection", "needs_review": True, "review_reason": "auto_memory", "confidence": 0.7}),
        ("demo-3", "fact", "Tom is learning to play the cello", "personal", [],
         {"needs_review": True, "review_reason": "ambiguous_entity", "confidence": 0.6}),
    ]
    for session_id, memory_type, content, domain, linked, extra in rows:
        memory_create(user_id=user, session_id=session_id, type=memory_type, content=content, domain=domain,
                      entities=linked, **extra)
        for entity in linked:
            if entity.kind == EntityKind.PERSON:
                mentions_record(entities=[entity], session_id=session_id)
    ambiguity_review_record(user_id=user, candidates=toms)  # which Tom? asked on the cello memory
    # A drift question, as the daily drift check raises it, so the review queue shows one.
    Entity.objects.filter(pk=alex.pk).update(drift_flagged=True, drift_flagged_at=now)
    EntityReview.objects.create(user_id=user, kind=EntityReviewKind.DRIFT, entity=alex)
    return True
