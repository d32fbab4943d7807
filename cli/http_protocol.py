"""The HTTP protocol ``matchlog serve`` runs uvicorn with: TCP_NODELAY on every connection,
and a sized answer's head sent with its body, in one write.

asyncio turns Nagle's algorithm off only for sockets whose protocol number says
TCP; the listening socket uvicorn binds itself for ``--workers 2`` and more has
protocol 0, so its connections kept Nagle on and every answer on a kept-alive
connection waited for the client's delayed ACK (about 40 ms: one ``GET /health``
took 44 ms with two workers, 0.8 ms with one; docs/benchmarks.md). Setting the
option here holds for every worker count and event loop.

uvicorn writes an answer's status line and headers, then its body, each with a
``transport.write`` of its own: without Nagle, two segments and two ``send`` calls
per answer (py-spy on a worker at 32 live matches: the head's write alone 11% of its
samples). An answer with a ``Content-Length`` has its body next, at once, so its head
waits for it here; a streamed answer (no length: the live feed) is not held (FIGURE).
"""

from __future__ import annotations

import asyncio
import socket
from typing import Any

try:
    # uvicorn's C parser (its ``standard`` extra) when installed, else the pure-Python one.
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as _Base
except ImportError:  # pragma: no cover - httptools is a dependency; kept for odd platforms
    from uvicorn.protocols.http.h11_impl import H11Protocol as _Base  # type: ignore[assignment]

HTTP_PROTOCOL = "cli.http_protocol:NoDelayHTTPProtocol"
"""What ``uvicorn.run(http=...)`` takes to load this protocol in every worker."""


def set_nodelay(transport: asyncio.BaseTransport) -> None:
    """Turn Nagle's algorithm off on a TCP transport's socket (a Unix socket has none)."""
    sock = transport.get_extra_info("socket")
    if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class NoDelayHTTPProtocol(_Base):
    """uvicorn's HTTP/1.1 protocol, answering without Nagle's delay."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Set TCP_NODELAY, then serve the connection as uvicorn does."""
        set_nodelay(transport)
        super().connection_made(transport)

    def on_headers_complete(self) -> None:
        """Start the request's cycle as uvicorn does, writing through ``_OneWriteAnswer``."""
        before = getattr(self, "cycle", None)
        super().on_headers_complete()
        cycle = getattr(self, "cycle", None)
        # Its task is created but not yet run: nothing has been written through it.
        if cycle is not None and cycle is not before:
            cycle.transport = _OneWriteAnswer(cycle, cycle.transport)


class _OneWriteAnswer:
    """A request cycle's transport that holds a sized answer's head until its body.

    Duck-typed (every other attribute is the transport's own): uvicorn's cycle only
    writes, closes and asks ``is_closing``.
    """

    __slots__ = ("_cycle", "_head", "_head_written", "_transport")

    def __init__(self, cycle: Any, transport: asyncio.Transport) -> None:
        self._cycle = cycle
        self._transport = transport
        self._head: bytes | None = None
        self._head_written = False

    def write(self, data: bytes) -> None:
        """Write ``data``; the head of an answer with a Content-Length waits for the body."""
        if self._head is not None:
            data, self._head = self._head + data, None
        elif not self._head_written and self._cycle.response_started:
            # The cycle marks the answer started, then writes its head; it has read
            # the headers by then: ``chunked_encoding`` False means a Content-Length.
            self._head_written = True
            if self._cycle.chunked_encoding is False:
                self._head = bytes(data)
                return
        self._transport.write(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)
