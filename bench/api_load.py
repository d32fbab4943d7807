"""Load on the recording API: 32 concurrent matches of random legal moves over HTTP.

    python bench/api_load.py                 # matchlog, then the --baseline, side by side
    python bench/api_load.py --seconds 30 --concurrency 32 --workers 2

It starts the embedded PostgreSQL (or uses MATCHLOG_DATABASE_URL), runs
``matchlog serve`` as its own process tree, and drives it from this process with
scorer-dealt Cuttle and Kozel matches whose moves were chosen beforehand with the
rules engine (so the driver spends no CPU on rules while timing). The baseline is
a bare Litestar endpoint doing only a move's SQL (insert, NOTIFY, commit), served
by uvicorn with the same workers and driven the same way. It prints moves/s, p50
and p99 latency of the move requests, and the peak RSS of the server's own
processes (PostgreSQL not counted), then the ratios.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.support import scratch_dir  # noqa: E402
from domain.stream import CreateMatch, MatchConfig, Play, StartRound, decide, fold, rules_for  # noqa: E402
from store import migrate  # noqa: E402
from store.database import resolve_database_url  # noqa: E402


@dataclass
class PlannedMatch:
    """A whole match chosen in advance: its creation body, then rounds of moves."""

    body: dict[str, Any]
    rounds: list[tuple[dict[str, Any], list[str]]] = field(default_factory=list)


def plan_match(game: str, players: list[str], rng: random.Random) -> PlannedMatch:
    """Play a scorer-dealt match with random legal moves locally and keep its script."""
    variant = "standard" if game == "cuttle" else "default"
    fmt = "extended" if game == "cuttle" else None
    options = {} if game == "cuttle" else {"loss_limit": 12}
    body = {
        "game": game,
        "variant": variant,
        "players": players,
        "dealing": "scorer",
        "first_dealer": 0,
        "format": fmt,
        "options": options or None,
    }
    config = MatchConfig(game, variant, tuple(players), 0, "scorer", fmt, options)
    rules = rules_for(game)
    state = fold(decide(fold([]), CreateMatch(config)))
    plan = PlannedMatch(body)
    while not state.is_over:
        spec = rules.deal_spec(config)
        deck = list(spec.pack)
        rng.shuffle(deck)
        deal: dict[str, Any] = {"deck": " ".join(c.text() for c in deck)}
        if spec.indicator_positions is not None:
            deal["indicator_position"] = rng.choice(spec.indicator_positions)
        state = fold(decide(state, StartRound(deal)), state)
        moves: list[str] = []
        while state.position is not None and not state.is_over:
            legal = [m.text() for m in rules.legal_moves(state.position)]
            move = rng.choice(legal)
            moves.append(move)
            state = fold(decide(state, Play(move)), state)
            if len(moves) > 2000:  # a classic-style loop; standard should never get here
                break
        plan.rounds.append((deal, moves))
    return plan


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class RssMonitor:
    """Samples the summed RSS of a process tree (PostgreSQL excluded); keeps the peak."""

    def __init__(self, pid: int) -> None:
        self.root = psutil.Process(pid)
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> RssMonitor:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._stop.is_set():
            total = 0
            try:
                for proc in [self.root, *self.root.children(recursive=True)]:
                    if "postgres" not in proc.name():
                        total += proc.memory_info().rss
            except psutil.Error:
                pass
            self.peak = max(self.peak, total)
            time.sleep(0.1)


def start_server(command: list[str], env: dict[str, str], port: int) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit(f"server did not start: {' '.join(command)}")


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()


async def drive_matchlog(
    base: str, token: str, plans: list[list[PlannedMatch]], seconds: float
) -> list[float]:
    """Play planned matches, one slot per concurrent scorer; return move latencies (s)."""
    latencies: list[float] = []
    deadline = time.monotonic() + seconds
    headers = {"Authorization": f"Bearer {token}"}
    limits = httpx.Limits(max_connections=len(plans), max_keepalive_connections=len(plans))
    async with httpx.AsyncClient(
        base_url=base, headers=headers, limits=limits, timeout=60
    ) as client:

        async def slot(queue: list[PlannedMatch]) -> None:
            for plan in queue:
                r = await client.post("/matches", json=plan.body)
                r.raise_for_status()
                match_id, version = r.json()["id"], r.json()["version"]
                for deal, moves in plan.rounds:
                    r = await client.post(
                        f"/matches/{match_id}/rounds", json={**deal, "expected_version": version}
                    )
                    r.raise_for_status()
                    version = r.json()["version"]
                    for move in moves:
                        if time.monotonic() > deadline:
                            return
                        start = time.perf_counter()
                        r = await client.post(
                            f"/matches/{match_id}/moves",
                            json={"moves": [move]},
                            headers={"If-Match": f'"{version}"'},
                        )
                        latencies.append(time.perf_counter() - start)
                        r.raise_for_status()
                        version = r.json()["version"]

        await asyncio.gather(*(slot(q) for q in plans))
    return latencies


async def drive_baseline(base: str, concurrency: int, seconds: float) -> list[float]:
    """Post move-sized bodies to the bare endpoint from ``concurrency`` scorers."""
    latencies: list[float] = []
    deadline = time.monotonic() + seconds
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=60) as client:

        async def slot(n: int) -> None:
            while time.monotonic() < deadline:
                start = time.perf_counter()
                r = await client.post(f"/matches/m{n}/moves", json={"moves": ["P0 points 7H"]})
                latencies.append(time.perf_counter() - start)
                r.raise_for_status()

        await asyncio.gather(*(slot(n) for n in range(concurrency)))
    return latencies


def summary(name: str, latencies: list[float], seconds: float, rss: int) -> dict[str, float]:
    ordered = sorted(latencies)
    p50 = statistics.median(ordered) * 1000
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000
    rate = len(ordered) / seconds
    print(
        f"{name:9s} {rate:8.0f} moves/s   p50 {p50:6.1f} ms   p99 {p99:6.1f} ms   "
        f"peak RSS {rss / 2**20:6.0f} MB   ({len(ordered)} moves)"
    )
    return {"rate": rate, "p50": p50, "p99": p99, "rss": rss}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=20.0, help="timed seconds per server")
    parser.add_argument("--concurrency", type=int, default=32, help="concurrent matches")
    parser.add_argument("--workers", type=int, default=2, help="server worker processes")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--no-baseline", action="store_true", help="skip the baseline run")
    args = parser.parse_args(argv)

    data_dir = scratch_dir()
    url = resolve_database_url(os.environ.get("MATCHLOG_DATABASE_URL"), data_dir)
    migrate.upgrade(url)
    token, players = asyncio.run(_seed(url))
    rng = random.Random(args.seed)
    print(f"planning matches for {args.concurrency} scorers ...", flush=True)
    plans = [
        [
            plan_match(
                "cuttle" if (i + j) % 2 else "kozel", players[:2] if (i + j) % 2 else players, rng
            )
            for j in range(3)
        ]
        for i in range(args.concurrency)
    ]
    env = {**os.environ, "MATCHLOG_DATABASE_URL": url, "MATCHLOG_DATA_DIR": str(data_dir)}

    port = free_port()
    server = start_server(
        [
            sys.executable,
            "-m",
            "cli.main",
            "serve",
            "--port",
            str(port),
            "--workers",
            str(args.workers),
        ],
        env,
        port,
    )
    try:
        with RssMonitor(server.pid) as rss:
            lat = asyncio.run(
                drive_matchlog(f"http://127.0.0.1:{port}", token, plans, args.seconds)
            )
        ours = summary("matchlog", lat, args.seconds, rss.peak)
    finally:
        stop_server(server)
    if args.no_baseline:
        return 0
    asyncio.run(_baseline_schema(url))
    port = free_port()
    baseline = start_server(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "bench.baseline_app:create_app",
            "--factory",
            "--port",
            str(port),
            "--workers",
            str(args.workers),
            "--log-level",
            "warning",
        ],
        env,
        port,
    )
    try:
        with RssMonitor(baseline.pid) as rss:
            lat = asyncio.run(
                drive_baseline(f"http://127.0.0.1:{port}", args.concurrency, args.seconds)
            )
        base = summary("baseline", lat, args.seconds, rss.peak)
    finally:
        stop_server(baseline)
    print(
        f"ratio matchlog/baseline: {ours['rate'] / base['rate']:.2f}x moves/s, "
        f"p99 {ours['p99'] / base['p99']:.2f}x"
    )
    return 0


async def _seed(url: str) -> tuple[str, list[str]]:
    import uuid

    import psycopg

    from store import accounts
    from store.accounts import Role

    async with await psycopg.AsyncConnection.connect(url) as conn:
        _, token = await accounts.create_token(conn, role=Role.SCORER, name="bench")
        players = []
        for i in range(4):
            player, _ = await accounts.create_player(conn, f"Bench {i}", player_id=uuid.uuid4())
            players.append(str(player.id))
        await conn.commit()
    return token, players


async def _baseline_schema(url: str) -> None:
    import psycopg

    from bench.baseline_app import SCHEMA

    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        await conn.execute(SCHEMA)


if __name__ == "__main__":
    raise SystemExit(main())
