"""recall_site.asgi's WsgiBridge: Django's WSGI handler served over ASGI, one thread hop a request."""
import asyncio
import threading

from recall_site.asgi import BUFFERED_BYTES, WsgiBridge


def call(wsgi_app, scope_extra=None, body=b""):
    """The ASGI messages the bridge sends for one request."""
    scope = {"type": "http", "method": "POST", "path": "/caf\u00e9", "query_string": b"a=1", "root_path": "",
             "headers": [(b"content-type", b"application/json"), (b"x_forwarded_for", b"6.6.6.6"),
                         (b"accept", b"a"), (b"accept", b"b")],
             "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 8000), "scheme": "http", **(scope_extra or {})}
    sent, messages = [], [{"type": "http.request", "body": body[:3], "more_body": True},
                          {"type": "http.request", "body": body[3:]}]

    async def receive():
        return messages.pop(0)

    async def send(message):
        sent.append(message)

    asyncio.run(WsgiBridge(wsgi_app, threads=2)(scope, receive, send))
    return sent


def test_a_small_answer_is_one_start_and_one_body_with_its_length():
    seen = {}

    def app(environ, start_response):
        seen.update(environ, body=environ["wsgi.input"].read())
        start_response("201 Created", [("Content-Type", "text/plain"), ("Set-Cookie", " k=v; Path=/")])
        return [b"he", b"llo"]

    start, body = call(app, body=b'{"x": 1}')
    assert start["status"] == 201 and body == {"type": "http.response.body", "body": b"hello"}
    assert (b"set-cookie", b"k=v; Path=/") in start["headers"] and (b"content-length", b"5") in start["headers"]
    assert seen["body"] == b'{"x": 1}' and seen["PATH_INFO"] == "/caf\u00e9".encode().decode("latin-1")
    assert seen["QUERY_STRING"] == "a=1" and seen["CONTENT_TYPE"] == "application/json"
    assert seen["HTTP_ACCEPT"] == "a,b" and "HTTP_X_FORWARDED_FOR" not in seen  # x_forwarded_for: dropped
    assert seen["REMOTE_ADDR"] == "127.0.0.1" and seen["wsgi.url_scheme"] == "http"


def test_a_large_answer_is_streamed_and_closed_in_the_thread_that_made_it():
    threads = {}

    class Answer:
        def __iter__(self):
            threads["made"] = threading.get_ident()
            for _ in range(40):
                yield b"x" * 16384

        def close(self):
            threads["closed"] = threading.get_ident()

    def app(environ, start_response):
        start_response("200 OK", [("Content-Type", "application/json")])
        return Answer()

    sent = call(app)
    assert sent[0]["type"] == "http.response.start"
    assert not any(name == b"content-length" for name, _ in sent[0]["headers"])
    bodies = sent[1:]
    assert len(bodies) > 2 and b"".join(m["body"] for m in bodies) == b"x" * 16384 * 40 > b"x" * BUFFERED_BYTES
    assert all(m.get("more_body") for m in bodies[:-1]) and not bodies[-1].get("more_body")
    assert threads["made"] == threads["closed"] != threading.get_ident()
