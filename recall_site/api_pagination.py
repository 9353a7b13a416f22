"""Pages of the API's lists: ?limit= (default 50, at most `input_limits.max_page_limit`) and ?offset=.

DRF's LimitOffsetPagination quietly replaces a limit or offset it cannot read
with the default; here a limit that is not an integer from 1 to the maximum, or
an offset that is not an integer from 0, is a 400 naming the parameter, and the
schema says so.
"""
from rest_framework import serializers
from rest_framework.pagination import LimitOffsetPagination

from recall_site.config import recall_setting


class RecallPagination(LimitOffsetPagination):
    @property
    def max_limit(self) -> int:
        return recall_setting("input_limits.max_page_limit")

    def get_limit(self, request):
        if self.limit_query_param not in request.query_params:
            return min(self.default_limit, self.max_limit)
        return _integer_param(request, self.limit_query_param, minimum=1, maximum=self.max_limit)

    def get_offset(self, request):
        if self.offset_query_param not in request.query_params:
            return 0
        return _integer_param(request, self.offset_query_param, minimum=0)

    def get_schema_operation_parameters(self, view):
        limit, offset = super().get_schema_operation_parameters(view)
        limit["schema"] = {"type": "integer", "minimum": 1, "maximum": self.max_limit}
        offset["schema"] = {"type": "integer", "minimum": 0}
        return [limit, offset]


def _integer_param(request, name: str, *, minimum: int, maximum: int | None = None) -> int:
    field = serializers.IntegerField(min_value=minimum, max_value=maximum)
    try:
        return field.run_validation(request.query_params[name])
    except serializers.ValidationError as error:
        raise serializers.ValidationError({name: error.detail}) from None


def paginated_response(request, queryset, serializer_class):
    """One page of `queryset`, serialized: {count, next, previous, results}."""
    paginator = RecallPagination()
    page = paginator.paginate_queryset(queryset, request)
    return paginator.get_paginated_response(serializer_class(page, many=True).data)


def lists_pages(view):
    """Mark a function view that answers with `paginated_response`, so its schema shows the page
    ({count, next, previous, results}) and the limit and offset parameters."""
    view.cls.pagination_class = RecallPagination
    return view
