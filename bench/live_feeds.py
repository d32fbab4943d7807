"""Live feeds under load: a competition's backlog read by many clients at once.

    python bench/live_feeds.py                   # 300 matches, 20 then 80 feeds
    python bench/live_feeds.py --matches 100 --feeds 20 80 300

It starts the embedded PostgreSQL in a temporary directory (or uses
MATCHLOG_DATABASE_URL), imports ``--matches`` simulated Cuttle matches into one
competition, runs ``matchlog serve``, then for each count in ``--feeds`` opens that
many anonymous ``/competitions/{id}/live`` feeds without ``Last-Event-ID`` (each
reads the whole backlog, then disconnects) and, while they read, times ``/health``
every half second from a thread of its own. It prints the server's peak RSS over
its idle RSS, the slowest ``/health``, the most database sessions counted while the
feeds were open, and how long the feeds took to read the backlog.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import httpx
import psutil
import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.servers import RssMonitor, free_port, start_server, stop_server  # noqa: E402
from bench.support import scratch_dir  # noqa: E402
from store import migrate  # noqa: E402
from store.database import resolve_database_url  # noqa: E402


def competition_log(matches: int, seed: int, competition: str, out: Path) -> None:
    """Write ``matches`` simulated Cuttle matches, all in one competition, to ``out``."""
    simulated = subprocess.run(
        [sys.executable, "-m", "cli.main", "simulate", "--game", "cuttle", "--variant",
         "standard", "--matches", str(matches), "--seed", str(seed)],
        cwd=ROOT, check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip
    with out.open("w") as f:
        for line in simulated.splitlines():
            record = json.loads(line)
            if "matchlog" in record:
                record["competition"] = {"id": competition, "name": "Bench cup"}
            elif record.get("type") == "MatchCreated":
                record["data"]["competition_id"] = competition
            f.write(json.dumps(record) + "\n")


def sessions(url: str) -> int:
    """How many sessions the database has (this one included)."""
    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
        ).fetchone()
    return int(row[0]) if row else 0


async def read_backlog(client: httpx.AsyncClient, url: str, events: int) -> None:
    """Read ``events`` messages of a feed, then disconnect."""
    seen = 0
    async with client.stream("GET", url) as response:
        response.raise_for_status()
        async for line in response.aiter_lines():
            if line.startswith("data:"):
                seen += 1
                if seen == events:
                    return


class Probe:
    """Times ``/health`` and counts database sessions every half second, from a thread.

    Its own thread and client: the feeds' client parses lines on the event loop,
    which would add its own delays to a probe made there.
    """

    def __init__(self, base: str, db: str) -> None:
        self.base, self.db = base, db
        self.slowest, self.sessions, self.refused = 0.0, 0, 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Probe:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        with httpx.Client(base_url=self.base, timeout=60) as client:
            while not self._stop.wait(0.5):
                start = time.perf_counter()
                if client.get("/health").status_code != 200:
                    self.refused += 1  # 503: the database did not answer through the pool
                self.slowest = max(self.slowest, time.perf_counter() - start)
                self.sessions = max(self.sessions, sessions(self.db))


async def run_feeds(base: str, url: str, feeds: int, events: int) -> float:
    """Open ``feeds`` feeds, each reading ``events`` messages; return the seconds taken."""
    limits = httpx.Limits(max_connections=feeds + 5, max_keepalive_connections=0)
    async with httpx.AsyncClient(base_url=base, timeout=300, limits=limits) as client:
        start = time.perf_counter()
        await asyncio.gather(*(read_backlog(client, url, events) for _ in range(feeds)))
        return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--matches", type=int, default=300)
    parser.add_argument("--feeds", type=int, nargs="+", default=[20, 80])
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)

    data_dir = scratch_dir()
    url = resolve_database_url(os.environ.get("MATCHLOG_DATABASE_URL"), data_dir)
    migrate.upgrade(url)
    competition = str(uuid.UUID(int=args.seed))
    log = data_dir / "cup.jsonl"
    competition_log(args.matches, args.seed, competition, log)
    env = {**os.environ, "MATCHLOG_DATABASE_URL": url, "MATCHLOG_DATA_DIR": str(data_dir)}
    subprocess.run(
        [sys.executable, "-m", "cli.main", "import", str(log)],
        cwd=ROOT, env=env, check=True, capture_output=True,
    )  # fmt: skip
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT count(*) FROM events").fetchone()
    events = int(row[0]) if row else 0
    print(f"{args.matches} matches, {events} events in one competition", flush=True)

    env["MATCHLOG_LIVE_MAX_FEEDS_PER_CLIENT"] = str(max(args.feeds) + 5)
    port = free_port()
    server = start_server(
        [sys.executable, "-m", "cli.main", "serve", "--port", str(port)], env, port
    )
    base = f"http://127.0.0.1:{port}"
    try:
        httpx.get(f"{base}/health", timeout=30).raise_for_status()
        for feeds in args.feeds:
            idle = sum(
                p.memory_info().rss
                for p in [psutil.Process(server.pid), *psutil.Process(server.pid).children(True)]
                if "postgres" not in p.name()
            )
            with RssMonitor(server.pid) as rss, Probe(base, url) as probe:
                seconds = asyncio.run(
                    run_feeds(base, f"/competitions/{competition}/live", feeds, events)
                )
            slowest, counted, refused = probe.slowest, probe.sessions, probe.refused
            print(
                f"{feeds} feeds read {events} events each in {seconds:.1f} s; "
                f"server RSS idle {idle / 2**20:.0f} MiB, "
                f"peak +{(rss.peak - idle) / 2**20:.0f} MiB; "
                f"slowest /health {slowest * 1e3:.0f} ms ({refused} answered 503); "
                f"database sessions {counted}",
                flush=True,
            )
    finally:
        stop_server(server)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
