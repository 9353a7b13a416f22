"""Query and result serializers of the export and import endpoints (the document's are in portability/document.py)."""
from rest_framework import serializers

from access.scope import UserIdQuerySerializer
from portability.responses import JSON, JSONL


class ExportQuerySerializer(UserIdQuerySerializer):
    format = serializers.ChoiceField(choices=[JSON, JSONL], default=JSON,
                                     help_text="json: one document; jsonl: JSON Lines, one row a line.")


class ImportResultSerializer(serializers.Serializer):
    user_id = serializers.CharField()
    added = serializers.DictField(child=serializers.IntegerField(),
                                  help_text="Rows added per kind; all 0 when the file was imported before.")
    audit_event_id = serializers.IntegerField()
