"""One structured line per request: method, path (never its query string), status, duration and the user
id it acted for, as JSON on the `recall.request` logger. Bodies, queries and memory content never go in.

The user id is what the request was authorised for: the console's acting user id, or the id an API view
scoped (access.scope records it with `note_user_id`).
"""
import json
import logging
import time

logger = logging.getLogger("recall.request")
USER_ID_ATTRIBUTE = "recall_user_id"


def note_user_id(request, user_id: str) -> None:
    """Remember which user id this request acts for (on Django's request, under DRF's wrapper)."""
    setattr(getattr(request, "_request", request), USER_ID_ATTRIBUTE, user_id)


class RequestLogMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        began = time.perf_counter()
        response = self.get_response(request)
        if logger.isEnabledFor(logging.INFO):
            logger.info(json.dumps({
                "method": request.method, "path": request.path, "status": response.status_code,
                "ms": round((time.perf_counter() - began) * 1000, 1),
                "user_id": getattr(request, USER_ID_ATTRIBUTE, None) or getattr(request, "acting_user_id", None),
            }))
        return response
