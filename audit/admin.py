from django.contrib import admin

from audit.models import AuditEvent


@admin.register(AuditEvent)
class AuditEventAdmin(admin.ModelAdmin):
    list_display = ["created_at", "actor", "action", "user_id", "counts"]
    list_filter = ["action"]
    search_fields = ["actor", "user_id", "action"]
    readonly_fields = ["actor", "user_id", "action", "target_ids", "counts", "reason", "created_at"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
