"""End to end: ``matchlog serve`` as a real process, driven over its socket."""

from __future__ import annotations

import random
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from store.accounts import Role
from tests.environment import clean_env
from tests.recording.play import create_match, play_to_end

REPO = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def serve(database_url: str, data_dir: Path, **settings: str) -> Iterator[str]:
    """Run ``matchlog serve`` on the database with extra ``MATCHLOG_*`` settings; yield its URL."""
    with server_process(database_url, data_dir, **settings) as (base, proc):
        yield base
        proc.terminate()
        proc.communicate(timeout=30)
        assert 0 == proc.returncode


@contextmanager
def server_process(
    database_url: str, data_dir: Path, **settings: str
) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """Run ``matchlog serve`` as ``serve`` does; yield its URL and process (killed after)."""
    port = free_port()
    env = clean_env(MATCHLOG_DATABASE_URL=database_url, MATCHLOG_DATA_DIR=str(data_dir))
    env.update({f"MATCHLOG_{name.upper()}": value for name, value in settings.items()})
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "serve", "--port", str(port)],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{base}/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert proc.poll() is None, proc.stdout.read() if proc.stdout else "server exited"
            assert time.monotonic() < deadline, "server did not answer /health"
            time.sleep(0.2)
        yield base, proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate(timeout=30)


@pytest.fixture(name="server")
def _server(database_url: str, tmp_path: Path) -> Iterator[str]:
    """Base URL of ``matchlog serve`` running on the test database."""
    with serve(database_url, tmp_path) as base:
        yield base


@pytest.fixture(name="http")
def _http(server: str, make_token: Any) -> Iterator[tuple[httpx.Client, dict[str, str]]]:
    with httpx.Client(base_url=server, timeout=30) as client:
        yield client, {"Authorization": f"Bearer {make_token(Role.SCORER)}"}


def players(client: httpx.Client, headers: dict[str, str], n: int) -> list[str]:
    return [
        client.post("/players", json={"display_name": f"P{i}"}, headers=headers).json()["id"]
        for i in range(n)
    ]


def test_whole_kozel_match_over_the_socket(http: tuple[httpx.Client, dict[str, str]]) -> None:
    client, scorer = http
    match = create_match(
        client,
        scorer,
        {"game": "kozel", "players": players(client, scorer, 4), "options": {"loss_limit": 4}},
    )
    final = play_to_end(client, scorer, match, random.Random(8))
    assert "finished" == final["status"]
    assert final == client.get(f"/matches/{match['id']}").json()


def test_two_scorers_racing_exactly_one_wins(http: tuple[httpx.Client, dict[str, str]]) -> None:
    client, scorer = http
    match = create_match(
        client,
        scorer,
        {"game": "cuttle", "variant": "standard", "players": players(client, scorer, 2)},
    )
    legal = client.get(f"/matches/{match['id']}/legal-moves", headers=scorer).json()["moves"]
    moves = [m for m in legal if "resign" not in m][:2]
    barrier = threading.Barrier(2)
    answers: list[httpx.Response] = []

    def post(move: str) -> None:
        with httpx.Client(base_url=str(client.base_url), timeout=30) as own:
            barrier.wait()
            answers.append(
                own.post(
                    f"/matches/{match['id']}/moves",
                    json={"moves": [move]},
                    headers={**scorer, "If-Match": f'"{match["version"]}"'},
                )
            )

    threads = [threading.Thread(target=post, args=(m,)) for m in moves]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    statuses = sorted(a.status_code for a in answers)
    assert [200, 412] == statuses
    winner = next(a for a in answers if a.status_code == 200).json()
    loser = next(a for a in answers if a.status_code == 412).json()
    assert winner["version"] == loser["details"]["current_version"]
    events = client.get(f"/matches/{match['id']}/events", headers=scorer).json()["items"]
    assert winner["version"] == len(events)


def test_serve_with_workers_on_the_embedded_database(embedded_dir: Path) -> None:
    """``matchlog serve --workers 2`` with no database URL: migrates, serves, stops cleanly."""
    port = free_port()
    env = clean_env(MATCHLOG_DATA_DIR=str(embedded_dir / "data"))
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "serve", "--port", str(port), "--workers", "2"],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                health = httpx.get(f"http://127.0.0.1:{port}/health", timeout=1)
                if health.status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert proc.poll() is None, proc.stdout.read() if proc.stdout else ""
            assert time.monotonic() < deadline
            time.sleep(0.3)
        assert "ok" == health.json()["status"]
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=60)
    assert 0 == proc.returncode, out
    pid_file = embedded_dir / "data" / "pg" / "postmaster.pid"
    assert not pid_file.exists(), "the embedded server stopped"
