"""Serve an ASGI app factory under uvicorn's worker processes with TCP_NODELAY.

    python -m bench.nodelay_uvicorn bench.baseline_app:create_app --port 8001 --workers 2

asyncio sets TCP_NODELAY on a connection only when the socket's protocol number says
TCP; with ``--workers`` uvicorn binds the listening socket as
``socket.socket(family=...)`` (protocol 0), and the accepted connections inherit that
0, so they keep Nagle's algorithm and wait on delayed ACKs. This binds the socket
itself with ``IPPROTO_TCP`` and hands it to uvicorn's supervisor, as ``uvicorn.run``
would its own. ``--plain`` serves through ``uvicorn.run`` instead, to compare.
"""

from __future__ import annotations

import argparse
import socket

import uvicorn
from uvicorn.supervisors import Multiprocess


def tcp_socket(host: str, port: int) -> socket.socket:
    """Return a listening-ready socket bound to ``host:port`` whose protocol is TCP."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.set_inheritable(True)
    return sock


def main(argv: list[str] | None = None) -> None:
    """Serve the factory named on the command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("app", help="module:factory of the ASGI app")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--plain", action="store_true", help="uvicorn.run, without the fix")
    args = parser.parse_args(argv)
    if args.plain:
        uvicorn.run(args.app, factory=True, host=args.host, port=args.port,
                    workers=args.workers, log_level="warning")  # fmt: skip
        return
    config = uvicorn.Config(
        args.app, factory=True, host=args.host, port=args.port, workers=args.workers,
        log_level="warning",
    )  # fmt: skip
    Multiprocess(config, sockets=[tcp_socket(args.host, args.port)]).run()


if __name__ == "__main__":
    main()
