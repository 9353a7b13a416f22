"""The entities app's part of every deletion (recall_site/purging.py): relations, aliases, mentions,
reviews and unresolved references the plan names, then the entities — removed, or left as a bare
tombstone (id, kind, deleted_at) while a kept relation still points at them."""
from django.utils import timezone

from entities.models import Alias, Entity, EntityMention, EntityReview, Relation, UnresolvedReference
from recall_site.purging import PurgePlan, Purger, sql_delete


class EntityPurger(Purger):
    models = (Entity, Alias, EntityMention, EntityReview, Relation, UnresolvedReference)
    order = 20

    def count(self, plan: PurgePlan) -> dict[str, int]:
        return {
            "entities_removed": len(plan.removed_entity_ids),
            "entities_tombstoned": len(plan.tombstone_ids),
            "aliases": len(plan.alias_ids),
            "mentions": len(plan.mention_ids),
            "relations": len(plan.relation_ids),
            "entity_reviews": len(plan.review_ids),
            "unresolved_references": len(plan.unresolved_ids),
        }

    def execute(self, plan: PurgePlan) -> dict[str, int]:
        return {
            "relations": sql_delete(Relation, "id", plan.relation_ids),
            "aliases": sql_delete(Alias, "id", plan.alias_ids),
            "mentions": sql_delete(EntityMention, "id", plan.mention_ids),
            "entity_reviews": sql_delete(EntityReview, "id", plan.review_ids),
            "unresolved_references": sql_delete(UnresolvedReference, "id", plan.unresolved_ids),
            "entities_tombstoned": _tombstone(plan.tombstone_ids),
            "entities_removed": sql_delete(Entity, "id", plan.removed_entity_ids),
        }


def _tombstone(entity_ids: list[int]) -> int:
    return Entity.objects.filter(pk__in=entity_ids).update(
        canonical_name="", normalized_name="", centroid=None, centroid_at_creation=None,
        relations_at_creation=[], drift_flagged=False, drift_flagged_at=None, last_mentioned_at=None,
        deleted_at=timezone.now(),
    )
