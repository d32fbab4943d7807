"""The HTTP protocol ``matchlog serve`` runs uvicorn with: TCP_NODELAY on every connection.

asyncio turns Nagle's algorithm off only for sockets whose protocol number says
TCP; the listening socket uvicorn binds itself for ``--workers 2`` and more has
protocol 0, so its connections kept Nagle on and every answer on a kept-alive
connection waited for the client's delayed ACK (about 40 ms: one ``GET /health``
took 44 ms with two workers, 0.8 ms with one; docs/benchmarks.md). Setting the
option here holds for every worker count and event loop.
"""

from __future__ import annotations

import asyncio
import socket

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
