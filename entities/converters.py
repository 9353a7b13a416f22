"""`<entity_id:public_id>` in URLs: an entity's public id matched by its format.

Ids are "ent_" and 12 hex digits (`entities.models.new_entity_public_id`), so
anything else in the URL (a NUL byte, a slash, 300 characters) is a 404 before
a query runs. The API schema shows the pattern.
"""
from django.urls.converters import StringConverter

PUBLIC_ID_PATTERN = "ent_[0-9a-f]{12}"


class EntityIdConverter(StringConverter):
    regex = PUBLIC_ID_PATTERN
