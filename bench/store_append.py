"""Event store append throughput: ours against a plain INSERT loop and `eventsourcing`.

    python bench/store_append.py                 # embedded server in a temp dir
    MATCHLOG_DATABASE_URL=postgresql://... python bench/store_append.py --seconds 5

Needs the bench extra (`pip install -e '.[bench]'`). Every writer appends move-sized
events (about 200 bytes of JSON) to its own stream, in batches of 1 and 4, with 1 and
16 concurrent writers, each batch one committed transaction, and prints events/s
(median of the repeats) for:

- ours: `store.events.append` (with its NOTIFY) + COMMIT, asyncio, one connection
  per writer;
- ours-nf: the same with `channel=None`, and a `store.events.Notifier` poked after
  each commit (the wake-up leaves the append transaction, see docs/event-store.md);
- plain: one multi-row INSERT into an equivalent table (same columns and indexes,
  no function, hash chain, NOTIFY or trigger) + COMMIT, asyncio: the limit;
- eventsourcing: `PostgresApplicationRecorder.insert_events` (eventsourcing 9.5.6,
  its own schema on the same server), one thread per writer.

All three run on one server with the same settings (`synchronous_commit` on). It
runs in a fresh database created for the run and dropped afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import statistics
import sys
import threading
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.support import fresh_database, scratch_dir
from domain.events import NewEvent
from store.database import canonical_url, with_database
from store.embedded import start_embedded
from store.events import Notifier, append

MOVE = {
    "seat": 1,
    "round": 2,
    "ply": 17,
    "move": "scuttle 9H 7D",
    "card": "9H",
    "target": "7D",
    "from": "hand",
    "to": "scrap",
    "seen_by": ["north", "south"],
    "clock_ms": 1234567,
}
MOVE_TYPE = "CardPlayedToScuttle"
METADATA = {"recorded_by": "bench", "request_id": "00000000-0000-0000-0000-000000000000"}

# The events table's columns, defaults, keys and indexes with an identity position,
# and none of its CHECKs, triggers or function: what a bare INSERT + COMMIT costs.
PLAIN_TABLE = """
CREATE TABLE plain_events (LIKE events INCLUDING DEFAULTS INCLUDING INDEXES);
ALTER TABLE plain_events ALTER global_position DROP DEFAULT;
ALTER TABLE plain_events ALTER global_position ADD GENERATED ALWAYS AS IDENTITY;
"""

Writer = Callable[[int, float], Awaitable[int]]


def new_events(batch: int) -> list[NewEvent]:
    return [NewEvent(uuid.uuid4(), MOVE_TYPE, MOVE, METADATA) for _ in range(batch)]


async def ours_writer(url: str, batch: int, index: int, deadline: float) -> int:
    """Append batches to one stream until ``deadline``; return how many events landed."""
    stream = f"cuttle-{uuid.uuid4()}"
    version = done = 0
    async with await psycopg.AsyncConnection.connect(url) as conn:
        while time.perf_counter() < deadline:
            result = await append(conn, stream, new_events(batch), version)
            await conn.commit()
            version = result.version
            done += batch
    return done


async def notifier_writer(url: str, batch: int, index: int, deadline: float) -> int:
    """Like ``ours_writer``, but the wake-up goes out after commit through a Notifier."""
    stream = f"cuttle-{uuid.uuid4()}"
    version = done = 0
    notifier = NOTIFIERS[url]
    async with await psycopg.AsyncConnection.connect(url) as conn:
        while time.perf_counter() < deadline:
            result = await append(conn, stream, new_events(batch), version, channel=None)
            await conn.commit()
            notifier.notify()
            version = result.version
            done += batch
    return done


NOTIFIERS: dict[str, Notifier] = {}


async def plain_writer(url: str, batch: int, index: int, deadline: float) -> int:
    stream = f"cuttle-{uuid.uuid4()}"
    version = done = 0
    rows = ", ".join(["(%s, %s, %s, %s, %s, %s, %s)"] * batch)
    sql = (
        "INSERT INTO plain_events (stream, version, event_id, type, data, metadata, hash) "
        f"VALUES {rows}"
    )
    digest = hashlib.sha256(json.dumps(MOVE).encode()).digest()
    async with await psycopg.AsyncConnection.connect(url) as conn:
        while time.perf_counter() < deadline:
            params: list[Any] = []
            for e in new_events(batch):
                version += 1
                params += [stream, version, e.event_id, e.type, Jsonb(e.data), Jsonb(e.metadata)]
                params.append(digest)
            await conn.execute(sql, params)
            await conn.commit()
            done += batch
    return done


def run_async(
    writer: Callable[..., Awaitable[int]], url: str, batch: int, writers: int, seconds: float
) -> float:
    async def main() -> float:
        async with Notifier(url) as notifier:
            NOTIFIERS[url] = notifier
            start = time.perf_counter()
            counts = await asyncio.gather(
                *(writer(url, batch, i, start + seconds) for i in range(writers))
            )
            return sum(counts) / (time.perf_counter() - start)

    return asyncio.run(main())


SYSTEMS: dict[str, Writer | None] = {
    "ours": ours_writer,
    "ours-nf": notifier_writer,
    "plain": plain_writer,
    "evsrc": None,  # threads, see run_eventsourcing
}


RATIOS = [
    ("ours", "plain", 10),
    ("ours", "evsrc", 10),
    ("ours-nf", "plain", 8),
    ("ours-nf", "evsrc", 8),
]


def ratio(numerators: list[float], denominators: list[float]) -> float:
    """Return the median of the run-by-run ratios."""
    return statistics.median(n / d for n, d in zip(numerators, denominators, strict=True))


def eventsourcing_recorder(url: str, writers: int) -> Any:
    from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore

    info = psycopg.conninfo.conninfo_to_dict(url)
    datastore = PostgresDatastore(
        dbname=str(info.get("dbname", "")),
        host=str(info.get("host", "")),
        port=str(info.get("port", "5432")),
        user=str(info.get("user", "")),
        password=str(info.get("password", "")),
        pool_size=writers,
        schema="eventsourcing_bench",
    )
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE SCHEMA IF NOT EXISTS eventsourcing_bench")
    recorder = PostgresApplicationRecorder(datastore)
    recorder.create_table()
    return recorder


def run_eventsourcing(recorder: Any, batch: int, writers: int, seconds: float) -> float:
    from eventsourcing.persistence import StoredEvent

    state = json.dumps(MOVE).encode()
    counts = [0] * writers

    def writer(index: int, deadline: float) -> None:
        originator = uuid.uuid4()
        version = 0
        while time.perf_counter() < deadline:
            events = []
            for _ in range(batch):
                version += 1
                events.append(StoredEvent(originator, version, MOVE_TYPE, state))
            recorder.insert_events(events)
            counts[index] += batch

    start = time.perf_counter()
    threads = [threading.Thread(target=writer, args=(i, start + seconds)) for i in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(counts) / (time.perf_counter() - start)


def bench_database(admin_url: str) -> str:
    """Create the run's database (with the plain table beside ours); return its name."""
    name = fresh_database(admin_url)
    with psycopg.connect(with_database(admin_url, name)) as conn:
        conn.execute(PLAIN_TABLE)
    return name


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=3.0, help="time per repeat")
    parser.add_argument("--repeats", type=int, default=3, help="repeats per figure (median)")
    parser.add_argument("--batches", type=int, nargs="+", default=[1, 4])
    parser.add_argument("--writers", type=int, nargs="+", default=[1, 16])
    args = parser.parse_args(argv)

    configured = os.environ.get("MATCHLOG_DATABASE_URL")
    tmp = scratch_dir()
    admin_url = canonical_url(configured) if configured else start_embedded(Path(tmp)).admin_url
    name = bench_database(admin_url)
    url = with_database(admin_url, name)
    try:
        with psycopg.connect(url) as conn:
            row = conn.execute(
                "SELECT current_setting('server_version'), "
                "current_setting('synchronous_commit'), current_setting('fsync')"
            ).fetchone()
        print(f"PostgreSQL {row[0]}, synchronous_commit={row[1]}, fsync={row[2]}")  # type: ignore[index]
        print(f"{args.seconds:g} s per run, median of {args.repeats} runs, events/s")
        print(
            f"{'writers':>7} {'batch':>5} {'ours':>7} {'ours-nf':>7} {'plain':>7} "
            f"{'evsrc':>7} {'ours/plain':>10} {'ours/evsrc':>10} "
            f"{'nf/plain':>8} {'nf/evsrc':>8}"
        )
        recorders: dict[int, Any] = {}
        for writers in args.writers:
            for batch in args.batches:
                rates: dict[str, list[float]] = {k: [] for k in SYSTEMS}
                recorder = recorders.get(writers) or eventsourcing_recorder(url, writers)
                recorders[writers] = recorder
                for _ in range(args.repeats):
                    # Interleave the systems so drift on a shared machine hits all alike.
                    for key, writer in SYSTEMS.items():
                        rate = (
                            run_eventsourcing(recorder, batch, writers, args.seconds)
                            if writer is None
                            else run_async(writer, url, batch, writers, args.seconds)
                        )
                        rates[key].append(rate)
                medians = [f"{statistics.median(rates[k]):>7,.0f}" for k in SYSTEMS]
                # Ratios are taken run by run (side by side), then the median.
                ratios = [f"{ratio(rates[a], rates[b]):>{width}.2f}" for a, b, width in RATIOS]
                print(f"{writers:>7} {batch:>5} {' '.join(medians)} {' '.join(ratios)}")
                sys.stdout.flush()
        for recorder in recorders.values():
            recorder.datastore.close()
    finally:
        with psycopg.connect(admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    return 0


if __name__ == "__main__":
    sys.exit(main())
