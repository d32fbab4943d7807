"""Live feeds at scale against a running ``matchlog serve``: one connection, pages, caps, tokens."""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import psycopg

from store.accounts import Role
from tests.environment import clean_env
from tests.projections.test_live import positions, sse
from tests.recording.play import create_match, play_to_end
from tests.recording.test_live_server import REPO, players, serve

FEEDS = 300


def record_move(base: str, headers: dict[str, str], match: dict[str, Any]) -> int:
    """Record the first legal move of a live match; return the match's new version."""
    with httpx.Client(base_url=base, timeout=30) as client:
        legal = client.get(f"/matches/{match['id']}/legal-moves", headers=headers).json()
        response = client.post(
            f"/matches/{match['id']}/moves",
            json={"moves": [legal["moves"][0]]},
            headers={**headers, "If-Match": f'"{match["version"]}"'},
        )
    assert 200 == response.status_code, response.text
    version: int = response.json()["version"]
    return version


def open_connections(database_url: str) -> int:
    """How many sessions the test database has, counted from a new connection."""
    with psycopg.connect(database_url) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
        ).fetchone()
    assert row is not None
    return int(row[0])


async def _follow(
    client: httpx.AsyncClient, url: str, after: int, opened: asyncio.Queue[int]
) -> dict[str, str]:
    """Open a feed after ``after``, report it open, return its first message's fields."""
    async with client.stream("GET", url, headers={"Last-Event-ID": str(after)}) as response:
        assert 200 == response.status_code
        await opened.put(1)
        fields: dict[str, str] = {}
        async for line in response.aiter_lines():
            if not line.strip():
                if "data" in fields:
                    return fields
                continue
            key, _, value = line.partition(":")
            fields[key] = value.strip()
    raise AssertionError("the feed ended before a message")


def test_hundreds_of_feeds_share_one_connection_and_all_get_a_move(
    database_url: str, tmp_path: Path, make_token: Any
) -> None:
    headers = {"Authorization": f"Bearer {make_token(Role.SCORER)}"}
    with serve(database_url, tmp_path, live_max_feeds_per_client=str(FEEDS + 10)) as base:
        with httpx.Client(base_url=base, timeout=30) as client:
            people = players(client, headers, 4)
            match = create_match(client, headers, {"game": "kozel", "players": people})
        after = positions(database_url, match["id"])[-1]
        url = f"/matches/{match['id']}/live"

        async def scenario() -> tuple[list[dict[str, str]], int, str]:
            limits = httpx.Limits(max_connections=FEEDS + 10, max_keepalive_connections=0)
            async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as client:
                opened: asyncio.Queue[int] = asyncio.Queue()
                feeds = [
                    asyncio.create_task(_follow(client, url, after, opened)) for _ in range(FEEDS)
                ]
                for _ in range(FEEDS):
                    await asyncio.wait_for(opened.get(), timeout=120)
                sessions = await asyncio.to_thread(open_connections, database_url)
                cli = await asyncio.to_thread(
                    subprocess.run,
                    [sys.executable, "-m", "cli.main", "matches", "--status", "live"],
                    cwd=REPO,
                    env=clean_env(MATCHLOG_DATABASE_URL=database_url),
                    capture_output=True,
                    text=True,
                    timeout=120,
                )
                assert 0 == cli.returncode, cli.stderr
                await asyncio.to_thread(record_move, base, headers, match)
                got = await asyncio.wait_for(asyncio.gather(*feeds), timeout=120)
                return got, sessions, cli.stdout

        got, sessions, listed = asyncio.run(scenario())
    new = positions(database_url, match["id"])[-1]
    assert [str(new)] * FEEDS == [fields["id"] for fields in got]
    # The pool (10 at most), the listener, the notifier and the counting connection.
    assert sessions <= 10 + 3, f"{sessions} sessions with {FEEDS} feeds open"
    assert match["id"][:8] in listed


def test_a_backlog_longer_than_a_page_arrives_whole_and_in_order(
    database_url: str, tmp_path: Path, make_token: Any
) -> None:
    headers = {"Authorization": f"Bearer {make_token(Role.SCORER)}"}
    admin = {"Authorization": f"Bearer {make_token(Role.ADMIN)}"}
    with (
        serve(database_url, tmp_path, live_page_size="4") as base,
        httpx.Client(base_url=base, timeout=30) as client,
    ):
        competition = client.post(
            "/competitions",
            json={"name": "Cup", "game": "cuttle", "variant": "standard", "format": "short"},
            headers=admin,
        ).json()["id"]
        people = players(client, headers, 2)
        body = {"game": "cuttle", "players": people, "competition_id": competition}
        first, second = (create_match(client, headers, body) for _ in range(2))
        outside = create_match(client, headers, {"game": "cuttle", "players": people})
        play_to_end(client, headers, outside, random.Random(1))
        play_to_end(client, headers, first, random.Random(2))
        play_to_end(client, headers, second, random.Random(3))
        one = positions(database_url, first["id"])
        both = sorted(one + positions(database_url, second["id"]))
        assert len(one) > 3 * 4, "the backlog spans several pages"

        match_feed = sse(client, f"/matches/{first['id']}/live", len(one))
        competition_feed = sse(client, f"/competitions/{competition}/live", len(both))
        resumed = sse(
            client, f"/competitions/{competition}/live", len(both) - 5, last_event_id=both[4]
        )
    assert one == [m["id"] for m in match_feed]
    assert both == [m["id"] for m in competition_feed]
    assert both[5:] == [m["id"] for m in resumed]


def refused(response: httpx.Response) -> dict[str, Any]:
    """Check a 429 problem+json with Retry-After; return its body."""
    assert 429 == response.status_code, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    assert int(response.headers["retry-after"]) > 0
    body: dict[str, Any] = response.json()
    assert "TOO_MANY_REQUESTS" == body["code"]
    return body


def test_feeds_past_a_clients_cap_or_the_servers_get_429_and_a_closed_one_frees_its_slot(
    database_url: str, tmp_path: Path, make_token: Any
) -> None:
    headers = {"Authorization": f"Bearer {make_token(Role.SCORER)}"}
    other = {"Authorization": f"Bearer {make_token(Role.SCORER)}"}
    caps = {"live_max_feeds_per_client": "2", "live_max_feeds": "3"}
    with serve(database_url, tmp_path, **caps) as base, httpx.Client(base_url=base) as client:
        match = create_match(
            client, headers, {"game": "kozel", "players": players(client, headers, 4)}
        )
        url = f"{base}/matches/{match['id']}/live"
        with httpx.Client(timeout=30) as a, httpx.Client(timeout=30) as b:
            first = a.send(a.build_request("GET", url), stream=True)
            second = b.send(b.build_request("GET", url), stream=True)
            assert [200, 200] == [first.status_code, second.status_code]
            assert "this client" in refused(client.get(url))["detail"]
            # A token is a client of its own: it may open the server's last feed.
            with client.stream("GET", url, headers=headers) as third:
                assert 200 == third.status_code
                assert "the server" in refused(client.get(url, headers=other))["detail"]
            first.close()
            a.close()
            # The server frees the slot once it sees the client gone: wait for that.
            deadline = time.monotonic() + 60
            while True:
                with client.stream("GET", url) as probe:
                    if 200 == probe.status_code:
                        break
                    probe.read()
                    refused(probe)
                assert time.monotonic() < deadline, "a closed feed kept its slot"
                time.sleep(0.1)
            second.close()


def test_a_feed_ends_when_its_token_is_revoked_and_delivers_nothing_after(
    database_url: str, tmp_path: Path, make_token: Any
) -> None:
    admin = {"Authorization": f"Bearer {make_token(Role.ADMIN)}"}
    scorer = {"Authorization": f"Bearer {make_token(Role.SCORER)}"}
    # An idle feed is re-checked once a minute: only the check on delivery can end it here.
    with (
        serve(database_url, tmp_path, live_token_check_interval="60") as base,
        httpx.Client(base_url=base, timeout=30) as client,
    ):
        match = create_match(
            client, scorer, {"game": "kozel", "players": players(client, scorer, 4)}
        )
        made = client.post("/tokens", json={"role": "scorer"}, headers=admin).json()
        viewer = {"Authorization": f"Bearer {made['token']}"}
        after = positions(database_url, match["id"])[-1]
        lines: list[str] = []
        with client.stream(
            "GET",
            f"/matches/{match['id']}/live",
            headers={**viewer, "Last-Event-ID": str(after)},
            timeout=120,
        ) as feed:
            assert 200 == feed.status_code
            assert 200 == client.delete(f"/tokens/{made['id']}", headers=admin).status_code
            mover = threading.Thread(target=record_move, args=(base, scorer, match))
            mover.start()
            lines.extend(feed.iter_lines())  # returns only once the server ends the feed
            mover.join()
    assert [] == [line for line in lines if line.strip()]


def test_an_idle_feed_ends_when_its_token_is_revoked(
    database_url: str, tmp_path: Path, make_token: Any
) -> None:
    admin = {"Authorization": f"Bearer {make_token(Role.ADMIN)}"}
    with (
        serve(database_url, tmp_path, live_token_check_interval="0.2") as base,
        httpx.Client(base_url=base, timeout=30) as client,
    ):
        made = client.post("/tokens", json={"role": "scorer"}, headers=admin).json()
        viewer = {"Authorization": f"Bearer {made['token']}"}
        match = create_match(
            client, viewer, {"game": "kozel", "players": players(client, viewer, 4)}
        )
        with client.stream(
            "GET", f"/matches/{match['id']}/live", headers=viewer, timeout=120
        ) as feed:
            assert 200 == feed.status_code
            lines = feed.iter_lines()
            dealt = [next(lines) for _ in range(8)]  # the match's creation and its deal
            assert 2 == sum(line.startswith("data:") for line in dealt), dealt
            assert 200 == client.delete(f"/tokens/{made['id']}", headers=admin).status_code
            rest = list(lines)  # returns only once the server ends the feed
    assert [] == [line for line in rest if line.strip()]
