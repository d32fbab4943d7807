"""``matchlog serve``'s HTTP protocol answers without Nagle's delay, whatever the socket."""

from __future__ import annotations

import asyncio
import socket

from cli.http_protocol import _OneWriteAnswer, set_nodelay


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


class _Cycle:
    def __init__(self, chunked_encoding: bool | None) -> None:
        self.response_started = False
        self.chunked_encoding = chunked_encoding


class _Writes(asyncio.Transport):
    def __init__(self) -> None:
        super().__init__()
        self.writes: list[bytes] = []

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.writes.append(bytes(data))

    def is_closing(self) -> bool:
        return False


def test_a_sized_answer_is_one_write_after_a_continue() -> None:
    cycle, transport = _Cycle(chunked_encoding=None), _Writes()
    answer = _OneWriteAnswer(cycle, transport)
    answer.write(b"HTTP/1.1 100 Continue\r\n\r\n")
    cycle.response_started, cycle.chunked_encoding = True, False
    answer.write(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n")
    assert transport.writes == [b"HTTP/1.1 100 Continue\r\n\r\n"]
    answer.write(b"{}")
    assert transport.writes[1:] == [b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}"]


def test_an_empty_body_sends_the_held_head() -> None:
    cycle, transport = _Cycle(chunked_encoding=False), _Writes()
    answer = _OneWriteAnswer(cycle, transport)
    cycle.response_started = True
    answer.write(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n")
    answer.write(b"")
    assert transport.writes == [b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n"]


def test_a_streamed_answer_sends_its_head_at_once() -> None:
    cycle, transport = _Cycle(chunked_encoding=True), _Writes()
    answer = _OneWriteAnswer(cycle, transport)
    cycle.response_started = True
    answer.write(b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n")
    assert transport.writes == [b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n"]
    answer.write(b"5\r\nhello\r\n")
    assert len(transport.writes) == 2
    assert answer.is_closing() is False
