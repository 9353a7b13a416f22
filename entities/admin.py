from django.contrib import admin

from entities.models import Alias, Entity, EntityMention, EntityReview, Relation, UnresolvedReference


class AliasInline(admin.TabularInline):
    model = Alias
    extra = 0
    fields = ["alias", "normalized", "origin", "created_at"]


@admin.register(Entity)
class EntityAdmin(admin.ModelAdmin):
    list_display = ["public_id", "user_id", "kind", "canonical_name", "last_mentioned_at",
                    "drift_flagged", "deleted_at"]
    list_filter = ["kind", "drift_flagged", ("deleted_at", admin.EmptyFieldListFilter)]
    search_fields = ["public_id", "canonical_name", "user_id", "aliases__normalized"]
    exclude = ["centroid", "centroid_at_creation"]
    inlines = [AliasInline]


@admin.register(Alias)
class AliasAdmin(admin.ModelAdmin):
    list_display = ["alias", "normalized", "entity", "origin", "user_id"]
    list_filter = ["origin"]
    search_fields = ["alias", "normalized", "user_id"]
    raw_id_fields = ["entity"]


@admin.register(Relation)
class RelationAdmin(admin.ModelAdmin):
    list_display = ["subject", "predicate", "object", "confidence", "status", "user_id", "created_at"]
    list_filter = ["predicate", "status"]
    search_fields = ["predicate", "user_id", "subject__canonical_name", "object__canonical_name"]
    raw_id_fields = ["subject", "object"]


@admin.register(EntityMention)
class EntityMentionAdmin(admin.ModelAdmin):
    list_display = ["entity", "session_id", "mentioned_at", "user_id"]
    search_fields = ["session_id", "user_id"]
    raw_id_fields = ["entity"]


@admin.register(UnresolvedReference)
class UnresolvedReferenceAdmin(admin.ModelAdmin):
    list_display = ["mention", "reason", "session_id", "user_id", "created_at"]
    list_filter = ["reason"]
    search_fields = ["mention", "user_id", "session_id"]


@admin.register(EntityReview)
class EntityReviewAdmin(admin.ModelAdmin):
    list_display = ["kind", "entity", "candidate", "user_id", "created_at", "resolved_at"]
    list_filter = ["kind", ("resolved_at", admin.EmptyFieldListFilter)]
    raw_id_fields = ["entity", "candidate"]
