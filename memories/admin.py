from django.contrib import admin

from memories.models import (
    IngestJob,
    Memory,
    MemoryEntity,
    MemoryHistory,
    SourceMessage,
    TurnInjection,
    UserProfile,
)


class MemoryEntityInline(admin.TabularInline):
    model = MemoryEntity
    extra = 0
    raw_id_fields = ["entity"]


@admin.register(Memory)
class MemoryAdmin(admin.ModelAdmin):
    list_display = ["id", "user_id", "type", "short_content", "domain", "sensitive", "confidence",
                    "status", "pinned", "needs_review", "source", "embedding_status", "created_at"]
    list_filter = ["type", "domain", "status", "source", "pinned", "needs_review", "sensitive",
                   "scope", "embedding_status"]
    search_fields = ["content", "user_id", "session_id", "attribute"]
    raw_id_fields = ["superseded_by", "subject"]
    exclude = ["embedding"]
    readonly_fields = ["created_at", "updated_at"]
    inlines = [MemoryEntityInline]
    date_hierarchy = "created_at"

    @admin.display(description="content")
    def short_content(self, memory):
        return memory.content[:80]


@admin.register(MemoryHistory)
class MemoryHistoryAdmin(admin.ModelAdmin):
    list_display = ["memory_id", "user_id", "action", "session_id", "at"]
    list_filter = ["action"]
    search_fields = ["user_id", "session_id"]
    raw_id_fields = ["memory"]


@admin.register(UserProfile)
class UserProfileAdmin(admin.ModelAdmin):
    list_display = ["user_id", "name", "assistant_name", "updated_at"]
    search_fields = ["user_id", "name"]


@admin.register(TurnInjection)
class TurnInjectionAdmin(admin.ModelAdmin):
    list_display = ["user_id", "session_id", "injected_at"]
    search_fields = ["user_id", "session_id"]


@admin.register(MemoryEntity)
class MemoryEntityAdmin(admin.ModelAdmin):
    list_display = ["memory_id", "entity", "role", "user_id"]
    list_filter = ["role"]
    raw_id_fields = ["memory", "entity"]


@admin.register(SourceMessage)
class SourceMessageAdmin(admin.ModelAdmin):
    list_display = ["message_id", "user_id", "session_id", "speaker", "at"]
    search_fields = ["user_id", "session_id", "message_id"]


@admin.register(IngestJob)
class IngestJobAdmin(admin.ModelAdmin):
    list_display = ["public_id", "user_id", "session_id", "status", "message_count", "attempts", "error",
                    "created_at", "finished_at"]
    list_filter = ["status"]
    search_fields = ["public_id", "user_id", "session_id"]
    readonly_fields = ["public_id", "created_at", "started_at", "finished_at"]
