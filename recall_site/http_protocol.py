"""uvicorn's HTTP protocol with Nagle's algorithm off on every accepted TCP connection.

With `--workers` > 1 uvicorn binds the listening socket itself with protocol 0, and asyncio sets
TCP_NODELAY only on sockets whose protocol is IPPROTO_TCP, so every response after the first on a
keep-alive connection waited ~40 ms for the client's delayed ACK (uvicorn issue 3149). `manage.py serve`
names this class with `--http`; it sets the option as each connection is made, whatever the worker count.
uvicorn's auto protocol is httptools' C parser when that is installed (a dependency), else h11.
"""
import socket

from uvicorn.protocols.http.auto import AutoHTTPProtocol

TCP_FAMILIES = (socket.AF_INET, socket.AF_INET6)


class NoDelayHTTPProtocol(AutoHTTPProtocol):
    def connection_made(self, transport) -> None:
        sock = transport.get_extra_info("socket")
        if sock is not None and sock.family in TCP_FAMILIES:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        super().connection_made(transport)
