"""The user_id an API request acts for: resolved (default `default`) and authorised against the grants."""
from rest_framework import serializers
from rest_framework.exceptions import PermissionDenied

from access.grants import can_act_for
from recall_site.api_input import validated
from recall_site.request_log import note_user_id

DEFAULT_USER_ID = "default"


def scoped_user_id(request, user_id: str | None) -> str:
    """The user id this request acts for (default `default`); 403 if the account is not granted it."""
    user_id = (user_id or DEFAULT_USER_ID).strip()
    if not can_act_for(request.user, user_id):
        raise PermissionDenied(f"This account may not act for user_id '{user_id}'.")
    note_user_id(request, user_id)
    return user_id


class UserIdQuerySerializer(serializers.Serializer):
    """?user_id= (default `default`), checked like any text input before it reaches the database."""

    user_id = serializers.CharField(max_length=128, default=DEFAULT_USER_ID)


def query_user_id(request) -> str:
    return scoped_user_id(request, validated(UserIdQuerySerializer, request.query_params.dict())["user_id"])


class ScopeSerializer(serializers.Serializer):
    user_id = serializers.CharField(max_length=128, default=DEFAULT_USER_ID)
    session_id = serializers.CharField(max_length=128, required=False, allow_blank=True)
