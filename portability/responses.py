"""The export as a streaming download, shared by the API and the console."""
from django.http import StreamingHttpResponse
from django.utils.http import content_disposition_header
from django.utils.text import slugify

from portability.selectors import export_json, export_jsonl

JSON = "json"
JSONL = "jsonl"
MEDIA_TYPES = {JSON: "application/json", JSONL: "application/x-ndjson"}


def export_response(user_id: str, shape: str = JSON) -> StreamingHttpResponse:
    """Everything held for `user_id`, streamed as one JSON document or as JSON Lines, as an attachment."""
    chunks = export_json(user_id) if shape == JSON else export_jsonl(user_id)
    response = StreamingHttpResponse(chunks, content_type=f"{MEDIA_TYPES[shape]}; charset=utf-8")
    filename = f"recall-export-{slugify(user_id) or 'user'}.{shape}"
    response["Content-Disposition"] = content_disposition_header(as_attachment=True, filename=filename)
    return response
