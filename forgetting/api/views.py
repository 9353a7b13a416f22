"""POST /api/v1/delete: forget a person, sessions, memory ids or a filter, with a dry run first."""
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.decorators import api_view
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from access.grants import actor_name
from access.scope import scoped_user_id
from forgetting.api import serializers as s
from forgetting.criteria import DeleteRequestError, UnknownTargetError
from forgetting.services import deletion_preview, hard_delete
from recall_site.api_input import validated
from recall_site.api_schema import with_errors


@extend_schema(request=s.DeleteInputSerializer, responses=with_errors({200: dict}, 400, 404))
@api_view(["POST"])
def delete_view(request):
    data = validated(s.DeleteInputSerializer, request.data)
    user_id = scoped_user_id(request, data.get("scope", {}).get("user_id"))
    criteria = s.criteria_from(data["filter"])
    try:
        if data["dry_run"]:
            return Response({"dry_run": True, **deletion_preview(user_id=user_id, criteria=criteria)})
        result = hard_delete(user_id=user_id, criteria=criteria, actor=actor_name(request.user),
                             audit_reason=data["audit_reason"])
    except UnknownTargetError as error:
        raise NotFound(str(error)) from error
    except DeleteRequestError as error:
        raise serializers.ValidationError({"filter": [str(error)]}) from error
    return Response({"dry_run": False, **result})
