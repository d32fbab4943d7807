"""Live feeds' caps across servers sharing one database, and who a client is (#29).

Each server here is a ``matchlog serve`` process of its own on the test's database,
as two hosts (or two ``--workers``) behind one load balancer would be.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any, cast

import httpx
import pytest
from litestar import Request

from api.live import client_address
from service.settings import Settings
from store.accounts import Role
from tests.projections.test_live_feeds import refused
from tests.recording.play import create_match
from tests.recording.test_live_server import players, serve, server_process


def live_url(base: str, make_token: Any) -> str:
    """Create a match on the server at ``base``; return its live feed's URL."""
    headers = {"Authorization": f"Bearer {make_token(Role.SCORER)}"}
    with httpx.Client(base_url=base, timeout=30) as client:
        match = create_match(
            client, headers, {"game": "kozel", "players": players(client, headers, 4)}
        )
    return f"/matches/{match['id']}/live"


class Feeds:
    """Feeds held open, each on a connection of its own, from one local address."""

    def __init__(self, stack: ExitStack, local_address: str = "127.0.0.1") -> None:
        self._stack = stack
        self._local = local_address
        self.open: list[tuple[httpx.Client, httpx.Response]] = []

    def get(self, url: str, forwarded: str | None = None) -> httpx.Response:
        """Ask for a feed; keep it open if it was granted, else return the refusal read."""
        client = self._stack.enter_context(
            httpx.Client(transport=httpx.HTTPTransport(local_address=self._local), timeout=30)
        )
        headers = {} if forwarded is None else {"X-Forwarded-For": forwarded}
        response = client.send(client.build_request("GET", url, headers=headers), stream=True)
        if 200 == response.status_code:
            self.open.append((client, response))
        else:
            response.read()
            client.close()
        return response

    def close_one(self) -> None:
        """Close the oldest open feed and its connection."""
        client, response = self.open.pop(0)
        response.close()
        client.close()


def until_granted(ask: Callable[[], httpx.Response], what: str, seconds: float = 60) -> float:
    """Ask until a feed is granted (every refusal a proper 429); return the seconds it took."""
    start = time.monotonic()
    while True:
        response = ask()
        if 200 == response.status_code:
            return time.monotonic() - start
        refused(response)
        assert time.monotonic() - start < seconds, what
        time.sleep(0.1)


@contextmanager
def two_servers(database_url: str, tmp_path: Path, **settings: str) -> Iterator[tuple[str, str]]:
    """Two ``matchlog serve`` processes on one database; yield their URLs."""
    with (
        serve(database_url, tmp_path / "a", **settings) as a,
        serve(database_url, tmp_path / "b", **settings) as b,
    ):
        yield a, b


class TestCapAcrossServers:
    def test_a_clients_21st_feed_across_two_servers_is_refused_until_one_closes(
        self, database_url: str, tmp_path: Path, make_token: Any
    ) -> None:
        with two_servers(database_url, tmp_path) as (a, b), ExitStack() as stack:
            path = live_url(a, make_token)
            feeds = Feeds(stack)
            for base in (a, b):
                for _ in range(10):
                    assert 200 == feeds.get(base + path).status_code
            for base in (a, b):
                body = refused(feeds.get(base + path))
                assert "this client already holds 20 live feeds" in body["detail"]
            feeds.close_one()  # one of server a's
            until_granted(lambda: feeds.get(b + path), "a closed feed kept its slot")
            refused(feeds.get(a + path))

    def test_a_killed_servers_feeds_stop_counting_once_its_lease_is_over(
        self, database_url: str, tmp_path: Path, make_token: Any
    ) -> None:
        caps = {"live_max_feeds_per_client": "2", "live_feed_lease": "3"}
        with (
            serve(database_url, tmp_path / "b", **caps) as b,
            server_process(database_url, tmp_path / "a", **caps) as (a, killed),
            ExitStack() as stack,
        ):
            path = live_url(b, make_token)
            feeds = Feeds(stack)
            assert [200, 200] == [feeds.get(a + path).status_code for _ in range(2)]
            killed.kill()
            killed.wait(timeout=30)
            # The killed server's lease (renewed each second) still holds for a while.
            refused(feeds.get(b + path))
            waited = until_granted(lambda: feeds.get(b + path), "a dead server's feeds counted")
            assert waited < 30


class TestForwardedFor:
    def test_an_untrusted_peers_x_forwarded_for_is_ignored(
        self, database_url: str, tmp_path: Path, make_token: Any
    ) -> None:
        caps = {"live_max_feeds_per_client": "1", "trusted_proxies": "127.0.0.2"}
        with serve(database_url, tmp_path, **caps) as base, ExitStack() as stack:
            url = base + live_url(base, make_token)
            feeds = Feeds(stack)  # from 127.0.0.1, a local peer but not a trusted one
            assert 200 == feeds.get(url, forwarded="203.0.113.1").status_code
            refused(feeds.get(url, forwarded="203.0.113.2"))
            refused(feeds.get(url))

    def test_a_trusted_proxys_x_forwarded_for_names_the_client(
        self, database_url: str, tmp_path: Path, make_token: Any
    ) -> None:
        caps = {"live_max_feeds_per_client": "1", "trusted_proxies": "127.0.0.2, 10.0.0.0/8"}
        with serve(database_url, tmp_path, **caps) as base, ExitStack() as stack:
            url = base + live_url(base, make_token)
            proxy = Feeds(stack, "127.0.0.2")
            assert 200 == proxy.get(url, forwarded="203.0.113.1").status_code
            assert 200 == proxy.get(url, forwarded="203.0.113.2").status_code
            refused(proxy.get(url, forwarded="203.0.113.2"))
            # What the client wrote itself, left of the address its proxy saw, is not believed.
            refused(proxy.get(url, forwarded="203.0.113.7, 203.0.113.2"))
            # Past another trusted proxy's address to the client's.
            refused(proxy.get(url, forwarded="203.0.113.1, 10.1.2.3"))
            assert 200 == proxy.get(url).status_code  # the proxy's own, without the header


def address(peer: str, trusted: str, *forwarded: str) -> str:
    """``client_address`` of a request from ``peer`` with these ``X-Forwarded-For`` headers."""
    headers = [(b"x-forwarded-for", value.encode()) for value in forwarded]
    request: Request[Any, Any, Any] = Request(
        cast(Any, {"type": "http", "client": (peer, 40000), "headers": headers})
    )
    return client_address(
        request, Settings.model_validate({"trusted_proxies": trusted}).trusted_proxies
    )


class TestClientAddress:
    @pytest.mark.parametrize(
        ("peer", "trusted", "forwarded", "expected"),
        [
            ("198.51.100.4", "", ["203.0.113.1"], "198.51.100.4"),
            ("198.51.100.4", "10.0.0.0/8", ["203.0.113.1"], "198.51.100.4"),
            ("10.0.0.5", "10.0.0.0/8", ["203.0.113.1"], "203.0.113.1"),
            ("10.0.0.5", "10.0.0.0/8", ["192.0.2.9, 203.0.113.1"], "203.0.113.1"),
            ("10.0.0.5", "10.0.0.0/8", ["203.0.113.1, 10.0.0.9"], "203.0.113.1"),
            ("10.0.0.5", "10.0.0.0/8", ["192.0.2.9", "203.0.113.1, 10.0.0.9"], "203.0.113.1"),
            ("10.0.0.5", "10.0.0.0/8", ["10.0.0.7, 10.0.0.9"], "10.0.0.7"),
            ("10.0.0.5", "10.0.0.0/8", ["203.0.113.1, unknown, 10.0.0.9"], "10.0.0.9"),
            ("10.0.0.5", "10.0.0.0/8", [], "10.0.0.5"),
            ("::1", "::1, 10.0.0.0/8", ["2001:db8::7"], "2001:db8::7"),
        ],
    )
    def test_the_right_most_address_not_a_trusted_proxys_is_the_client(
        self, peer: str, trusted: str, forwarded: list[str], expected: str
    ) -> None:
        assert expected == address(peer, trusted, *forwarded)
