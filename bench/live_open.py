"""What opening a live feed costs: feeds opened one at a time, then a crowd at once.

    python bench/live_open.py                            # 200 feeds, 3 rounds
    python bench/live_open.py --rounds 5 --compare DIR   # paired with another tree
    python bench/live_open.py --feeds 1000 --rounds 1    # a process's whole cap held

It starts the embedded PostgreSQL in a temporary directory and serves matchlog on a
fresh database (and, with ``--compare DIR``, that tree's matchlog on a database of
its own; each server migrates its own). Each round, for each server in turn, one
anonymous client opens ``--feeds`` feeds of one match at its head
(``Last-Event-ID``: no backlog to read) one after another, each kept open, timing
each open from request to response headers, and the server's and PostgreSQL's CPU
over them; then it closes them and opens as many at once, timing how long until
all are open. It prints per round and server: the opens' p50 and p95, CPU an open,
the crowd's time and how many feeds the crowd got; with ``--compare``, the paired
ratios of the medians (matchlog/compare).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import httpx
import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.api_load import postmaster_pid  # noqa: E402
from bench.proc_stats import cpu_seconds  # noqa: E402
from bench.servers import free_port, seed_scorer, start_server, stop_server  # noqa: E402
from bench.support import scratch_dir  # noqa: E402
from store.database import resolve_database, with_database  # noqa: E402


@dataclass
class Server:
    """A served tree: its name, URL, process, database and its feed's path."""

    name: str
    base: str
    proc: subprocess.Popen[bytes]
    database: str
    path: str = ""


@dataclass
class Round:
    """One server's figures for one round."""

    p50_ms: float
    p95_ms: float
    server_cpu_ms: float
    postgres_cpu_ms: float
    crowd_s: float
    granted: int


def make_match(base: str, url: str) -> str:
    """Create a token and a Kozel match over the API; return the match's live path."""
    token, players = asyncio.run(seed_scorer(url))
    headers = {"Authorization": f"Bearer {token}"}
    body = {"game": "kozel", "players": players}
    answer = httpx.post(f"{base}/matches", json=body, headers=headers, timeout=60)
    answer.raise_for_status()
    return f"/matches/{answer.json()['id']}/live"


def head_position(url: str) -> int:
    """The log's last global position."""
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT coalesce(max(global_position), 0) FROM events").fetchone()
    return int(row[0]) if row else 0


async def open_feed(
    client: httpx.AsyncClient, url: str, after: int
) -> tuple[float, httpx.Response]:
    """Open a feed; return the seconds to its headers and the open response."""
    start = time.perf_counter()
    request = client.build_request("GET", url, headers={"Last-Event-ID": str(after)})
    response = await client.send(request, stream=True)
    return time.perf_counter() - start, response


async def measure(server: Server, feeds: int, after: int, postmaster: int) -> Round:
    """One round on one server: ``feeds`` opened in turn, then as many at once."""
    limits = httpx.Limits(max_connections=feeds + 5, max_keepalive_connections=0)
    async with httpx.AsyncClient(base_url=server.base, timeout=300, limits=limits) as client:
        url = server.path
        cpu, pg = cpu_seconds(server.proc.pid), cpu_seconds(postmaster)
        opened: list[tuple[float, httpx.Response]] = []
        for _ in range(feeds):
            opened.append(await open_feed(client, url, after))
        cpu, pg = cpu_seconds(server.proc.pid) - cpu, cpu_seconds(postmaster) - pg
        assert all(200 == r.status_code for _, r in opened), "an open was refused"
        for _, response in opened:
            await response.aclose()
        await asyncio.sleep(2)  # the server sees the clients gone and frees their slots
        start = time.perf_counter()
        crowd = await asyncio.gather(*(open_feed(client, url, after) for _ in range(feeds)))
        crowd_s = time.perf_counter() - start
        granted = sum(200 == r.status_code for _, r in crowd)
        for _, response in crowd:
            await response.aclose()
        await asyncio.sleep(2)
    seconds = sorted(s for s, _ in opened)
    return Round(
        p50_ms=statistics.median(seconds) * 1e3,
        p95_ms=seconds[int(0.95 * (len(seconds) - 1))] * 1e3,
        server_cpu_ms=cpu / feeds * 1e3,
        postgres_cpu_ms=pg / feeds * 1e3,
        crowd_s=crowd_s,
        granted=granted,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--feeds", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--compare", type=Path, help="another tree to serve next to this one")
    args = parser.parse_args(argv)

    data_dir = scratch_dir()
    admin = resolve_database(None, None, data_dir).owner
    postmaster = postmaster_pid(admin)
    trees = [("matchlog", ROOT)] + ([("compare", args.compare)] if args.compare else [])
    servers: list[Server] = []
    try:
        for name, tree in trees:
            database = f"live_open_{name}_{uuid.uuid4().hex[:8]}"
            with psycopg.connect(admin, autocommit=True) as conn:
                conn.execute(f'CREATE DATABASE "{database}"')
            url = with_database(admin, database)
            port = free_port()
            env = {
                **{k: v for k, v in os.environ.items() if not k.startswith("MATCHLOG_")},
                "MATCHLOG_DATABASE_URL": url,
                "MATCHLOG_DATA_DIR": str(data_dir / name),
                "MATCHLOG_LIVE_MAX_FEEDS": str(max(1000, args.feeds + 5)),
                "MATCHLOG_LIVE_MAX_FEEDS_PER_CLIENT": str(args.feeds + 5),
            }
            command = [sys.executable, "-m", "cli.main", "serve", "--port", str(port),
                       "--workers", str(args.workers)]  # fmt: skip
            proc = start_server(command, env, port, tree)
            server = Server(name, f"http://127.0.0.1:{port}", proc, url)
            servers.append(server)
            deadline = time.monotonic() + 60
            while httpx.get(f"{server.base}/health", timeout=30).status_code != 200:
                assert time.monotonic() < deadline, f"{name} did not answer /health"
                time.sleep(0.2)
            server.path = make_match(server.base, url)
            # Untimed: a fresh server's first feeds pay for imports and plans.
            asyncio.run(measure(server, min(20, args.feeds), head_position(url), postmaster))
        rounds: dict[str, list[Round]] = {s.name: [] for s in servers}
        for n in range(args.rounds):
            for server in servers if n % 2 == 0 else servers[::-1]:
                after = head_position(server.database)
                got = asyncio.run(measure(server, args.feeds, after, postmaster))
                rounds[server.name].append(got)
                print(
                    f"round {n + 1} {server.name}: {args.feeds} opens p50 {got.p50_ms:.2f} ms, "
                    f"p95 {got.p95_ms:.2f} ms; CPU an open: server {got.server_cpu_ms:.2f} ms, "
                    f"PostgreSQL {got.postgres_cpu_ms:.2f} ms; {args.feeds} at once: "
                    f"{got.granted} granted in {got.crowd_s:.2f} s",
                    flush=True,
                )
        if args.compare:
            ours, other = rounds["matchlog"], rounds["compare"]
            for field in ("p50_ms", "p95_ms", "server_cpu_ms", "postgres_cpu_ms", "crowd_s"):
                ratios = [
                    getattr(a, field) / getattr(b, field) for a, b in zip(ours, other, strict=True)
                ]
                listed = " ".join(f"{r:.2f}" for r in ratios)
                median = statistics.median(ratios)
                print(f"matchlog/compare {field}: rounds {listed}, median {median:.2f}")
    finally:
        for server in servers:
            stop_server(server.proc)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
