from django.contrib import admin

from access.models import UserIdGrant


@admin.register(UserIdGrant)
class UserIdGrantAdmin(admin.ModelAdmin):
    list_display = ["account", "user_id", "created_at"]
    search_fields = ["account__username", "user_id"]
