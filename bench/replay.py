"""Replay stepping over HTTP: latency of ``GET /matches/{id}/replay?ply=N`` at random plies.

    python bench/replay.py                       # 1000 requests, public and full views
    python bench/replay.py --requests 2000 --events 300

It starts the embedded PostgreSQL in a temporary directory (or uses
MATCHLOG_DATABASE_URL), runs ``matchlog serve`` as its own process, records
scorer-dealt Kozel matches over HTTP until one has at least ``--events`` events,
then requests random plies of it from one keep-alive client and prints p50, p95
and p99 per view (target: p95 <= 10 ms). The first request, which builds the
server's replay track, is reported apart.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.load_plan import plan_match  # noqa: E402
from bench.servers import free_port, seed_scorer, start_server, stop_server  # noqa: E402
from bench.support import scratch_dir  # noqa: E402
from store import migrate  # noqa: E402
from store.database import resolve_database_url  # noqa: E402


def record(client: httpx.Client, players: list[str], rng: random.Random, events: int) -> str:
    """Record planned Kozel matches until one has ``events`` events; return its id."""
    while True:
        plan = plan_match("kozel", players, rng)
        r = client.post("/matches", json=plan.body)
        r.raise_for_status()
        match_id, version = r.json()["id"], r.json()["version"]
        for deal, moves in plan.rounds:
            r = client.post(
                f"/matches/{match_id}/rounds", json={**deal, "expected_version": version}
            )
            r.raise_for_status()
            r = client.post(
                f"/matches/{match_id}/moves",
                json={"moves": moves},
                headers={"If-Match": f'"{r.json()["version"]}"'},
            )
            r.raise_for_status()
            version = r.json()["version"]
        if version >= events:
            return str(match_id)


def percentile(values: list[float], q: float) -> float:
    """Return the q-quantile (0-1) of ``values``, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--requests", type=int, default=1000, help="timed requests per view")
    parser.add_argument("--events", type=int, default=300, help="least events in the match")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)

    data_dir = scratch_dir()
    url = resolve_database_url(os.environ.get("MATCHLOG_DATABASE_URL"), data_dir)
    migrate.upgrade(url)
    token, players = asyncio.run(seed_scorer(url))
    env = {**os.environ, "MATCHLOG_DATABASE_URL": url, "MATCHLOG_DATA_DIR": str(data_dir)}
    port = free_port()
    command = [sys.executable, "-m", "cli.main", "serve", "--port", str(port)]
    server = start_server(command, env, port)
    rng = random.Random(args.seed)
    try:
        headers = {"Authorization": f"Bearer {token}"}
        base = f"http://127.0.0.1:{port}"
        with httpx.Client(base_url=base, headers=headers, timeout=30) as client:
            match_id = record(client, players, rng, args.events)
            start = time.perf_counter()
            first = client.get(f"/matches/{match_id}/replay", params={"ply": 0})
            elapsed = (time.perf_counter() - start) * 1e3
            first.raise_for_status()
            plies = first.json()["plies"]
            version = client.get(f"/matches/{match_id}").json()["version"]
            print(f"match {match_id}: {version} events, {plies} plies", flush=True)
            print(f"first request (reads the stream, builds the track): {elapsed:.1f} ms")
            for view in ("public", "full", "2"):
                latencies = []
                for _ in range(args.requests):
                    ply = rng.randint(0, plies)
                    start = time.perf_counter()
                    r = client.get(f"/matches/{match_id}/replay", params={"ply": ply, "seat": view})
                    latencies.append((time.perf_counter() - start) * 1e3)
                    r.raise_for_status()
                print(
                    f"seat={view:6} {args.requests} requests: "
                    f"p50 {statistics.median(latencies):.2f} ms, "
                    f"p95 {percentile(latencies, 0.95):.2f} ms, "
                    f"p99 {percentile(latencies, 0.99):.2f} ms (target p95 <= 10 ms)",
                    flush=True,
                )
    finally:
        stop_server(server)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
