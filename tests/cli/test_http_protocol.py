"""``matchlog serve``'s HTTP protocol answers without Nagle's delay, whatever the socket."""

from __future__ import annotations

import asyncio
import socket

from cli.http_protocol import set_nodelay


class _Transport(asyncio.Transport):
    def __init__(self, sock: socket.socket) -> None:
        super().__init__({"socket": sock})
        self._sock = sock

    def get_extra_info(self, name: str, default: object = None) -> object:
        return self._sock if name == "socket" else default


def test_nodelay_is_set_on_a_connection_of_a_protocol_0_listener() -> None:
    # Bound the way uvicorn binds for several workers: no protocol number, so
    # asyncio leaves Nagle's algorithm on for the connections it accepts.
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        with socket.create_connection(listener.getsockname()):
            accepted, _ = listener.accept()
            with accepted:
                assert 0 == accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
                set_nodelay(_Transport(accepted))
                assert 0 != accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)


def test_a_unix_socket_is_left_alone() -> None:
    left, right = socket.socketpair()
    with left, right:
        set_nodelay(_Transport(left))
