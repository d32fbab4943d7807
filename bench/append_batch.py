"""What batching saves the log importer: ``append`` per stream against ``append_batch``.

    python bench/append_batch.py                  # embedded server in a temp dir
    python bench/append_batch.py --streams 500 --events 60 --batches 16 32 --repeats 3
    MATCHLOG_DATABASE_URL=postgresql://... python bench/append_batch.py

Appends ``--streams`` streams of ``--events`` move-sized events each (with
recorded-at times, as ``matchlog import`` brings them; no NOTIFY), on one
connection, three ways side by side in each repeat:

- append: ``store.events.append`` + COMMIT, one transaction per stream (what the
  recorder does today);
- batch N: ``store.events.append_batch`` of N streams + COMMIT, one transaction per
  N streams.

It prints, per way, the median over the repeats of: the Python CPU per event (this
process's CPU time, psycopg and the parameter building included), the wall time per
event, and the CPU per event of the connection's PostgreSQL backend (when the server
runs on this machine). The events are built before the clock starts. It runs in a
fresh database created for the run and dropped afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import psutil
import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.store_append import MOVE
from bench.support import fresh_database, scratch_dir
from domain.events import NewEvent
from store.database import canonical_url, with_database
from store.embedded import start_embedded
from store.events import append, append_batch

METADATA = {"recorded_by": "bench", "request_id": "00000000-0000-0000-0000-000000000000"}
START = datetime(2026, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class Figures:
    """One run's costs, in microseconds per event."""

    python_cpu: float
    wall: float
    server_cpu: float | None


def new_streams(streams: int, events: int) -> list[tuple[str, list[NewEvent]]]:
    """Return fresh streams of move events with recorded-at times."""
    return [
        (
            f"cuttle-{uuid.uuid4()}",
            [
                NewEvent(uuid.uuid4(), "CardPlayed", MOVE, METADATA, START + timedelta(seconds=n))
                for n in range(events)
            ],
        )
        for _ in range(streams)
    ]


def backend(pid: int) -> psutil.Process | None:
    """Return the backend's process when the server runs here, else ``None``."""
    try:
        process = psutil.Process(pid)
        process.cpu_times()
    except (psutil.Error, OSError):
        return None
    return process


def cpu_seconds(process: psutil.Process | None) -> float:
    if process is None:
        return 0.0
    times = process.cpu_times()
    return float(times.user + times.system)


async def one_run(url: str, streams: int, events: int, batch: int | None) -> Figures:
    """Append the streams one transaction per stream (``batch`` None) or per batch."""
    work = new_streams(streams, events)
    async with await psycopg.AsyncConnection.connect(url) as conn:
        row = await (await conn.execute("SELECT pg_backend_pid()")).fetchone()
        assert row is not None
        server = backend(int(row[0]))
        server_before = cpu_seconds(server)
        cpu_before, wall_before = time.process_time(), time.perf_counter()
        if batch is None:
            for stream, stream_events in work:
                await append(conn, stream, stream_events, 0, channel=None)
                await conn.commit()
        else:
            for first in range(0, len(work), batch):
                await append_batch(conn, [(s, e, 0) for s, e in work[first : first + batch]])
                await conn.commit()
        cpu, wall = time.process_time() - cpu_before, time.perf_counter() - wall_before
        server_cpu = cpu_seconds(server) - server_before
    total = streams * events
    return Figures(
        cpu / total * 1e6,
        wall / total * 1e6,
        None if server is None else server_cpu / total * 1e6,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--streams", type=int, default=500, help="streams per run")
    parser.add_argument("--events", type=int, default=60, help="events per stream")
    parser.add_argument(
        "--batches", type=int, nargs="+", default=[16, 32], help="streams per batch"
    )
    parser.add_argument("--repeats", type=int, default=3, help="runs per way (median)")
    args = parser.parse_args(argv)

    ways: list[tuple[str, int | None]] = [("append", None)]
    ways += [(f"batch {n}", n) for n in args.batches]
    configured = os.environ.get("MATCHLOG_DATABASE_URL")
    tmp = scratch_dir()
    admin_url = canonical_url(configured) if configured else start_embedded(Path(tmp)).admin_url
    name = fresh_database(admin_url)
    url = with_database(admin_url, name)
    try:
        runs: dict[str, list[Figures]] = {label: [] for label, _ in ways}
        for _ in range(args.repeats):
            # Interleaved, so drift on a shared machine hits every way alike.
            for label, batch in ways:
                runs[label].append(asyncio.run(one_run(url, args.streams, args.events, batch)))
        print(
            f"{args.streams} streams x {args.events} events, median of {args.repeats} runs,"
            " microseconds per event"
        )
        print(f"{'way':>9} {'python cpu':>10} {'wall':>7} {'server cpu':>10}")
        for label, _ in ways:
            print(row(label, runs[label]))
    finally:
        with psycopg.connect(admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    return 0


def row(label: str, figures: list[Figures]) -> str:
    def median(values: list[Any]) -> str:
        return "-" if None in values else f"{statistics.median(values):.1f}"

    return (
        f"{label:>9} {median([f.python_cpu for f in figures]):>10} "
        f"{median([f.wall for f in figures]):>7} {median([f.server_cpu for f in figures]):>10}"
    )


if __name__ == "__main__":
    sys.exit(main())
