"""Validating an API request's input with a DRF serializer (errors become the JSON 400 of api_errors)."""
from rest_framework import serializers


def validated(serializer_class, data, **kwargs) -> dict:
    """Validate request data with an input serializer; DRF turns errors into a JSON 400."""
    if not isinstance(data, dict):
        raise serializers.ValidationError({"non_field_errors": ["Expected a JSON object."]})
    serializer = serializer_class(data=data, **kwargs)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data
