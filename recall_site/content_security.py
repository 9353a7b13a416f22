"""A Content-Security-Policy on every answer: the console's scripts and styles come from its own static files
(htmx and the chart library are vendored in static/), so nothing inline or from elsewhere may run — a stored
XSS payload that slipped past escaping still would not execute."""
POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
          "connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'")


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", POLICY)
        return response
