"""Where a single writer's append goes, against a plain INSERT + COMMIT loop.

    python bench/append_cost.py                   # 400 appends a run, 5 rounds
    python bench/append_cost.py --appends 1000 --rounds 7

One connection appends one move-sized event per transaction to its own stream, in
each of these ways, the ways alternating within each round (their order rotating):

- plain: one INSERT into a copy of the events table without its function, CHECKs
  or trigger (bench/store_append.py's anchor) + COMMIT;
- plain+notify: the same plus ``pg_notify`` in the transaction;
- fn-nolock, fn-nohash, fn-noset: ``events_append`` copies without, in turn, the
  advisory lock, the hash chain (a constant hash), and the ``SET enable_seqscan``
  clause, called with ready texts and no NOTIFY;
- fn: the ``events_append`` function itself, called the same way (no NOTIFY);
- fn+notify: the same with its NOTIFY;
- append-nf: ``store.events.append(channel=None)``: the store's Python side too;
- append: ``store.events.append`` with its NOTIFY: what the store does.

Printed per way (medians over the rounds): wall µs per append (the commit waits for
the WAL flush), this process's CPU µs per append, the server backend's CPU µs per
append (from /proc), and the rate against plain's, round by round. The differences
between neighbouring ways say where the time goes. It runs in a fresh database on
the embedded server (or MATCHLOG_DATABASE_URL's server), dropped afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import os
import re
import statistics
import sys
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import psutil
import psycopg
from psycopg.types.json import Jsonb

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.store_append import METADATA, MOVE, MOVE_TYPE, PLAIN_TABLE, new_events  # noqa: E402
from bench.support import fresh_database, scratch_dir  # noqa: E402
from store.database import canonical_url, with_database  # noqa: E402
from store.embedded import start_embedded  # noqa: E402
from store.events import CHANNEL, append, canonical_json  # noqa: E402

FUNCTION = ROOT / "migrations/sql/functions/events_append.0011_chain_v2.sql"
CALL = (
    "SELECT global_position, version, recorded_at, hash, metadata FROM {name}("
    "%s, %s, %s::uuid[], %s::text[], %s::text[], %s::text[], %s, NULL::timestamptz[])"
)
HASH_LOOP = re.compile(r"    FOR i IN 1\.\.n LOOP.*?END LOOP;", re.DOTALL)


def variants() -> dict[str, str]:
    """Return the function copies by name: the text of events_append, each without one part."""
    text = FUNCTION.read_text()
    cut = {
        "events_append_nolock": re.sub(r"\n    PERFORM pg_advisory_xact_lock\([^;]*;", "", text),
        "events_append_nohash": HASH_LOOP.sub(
            "    FOR i IN 1..n LOOP\n        hashes := hashes || sha256(''::bytea);\n    END LOOP;",
            text,
        ),
        "events_append_noset": text.replace("SET enable_seqscan = off\n", ""),
    }
    for name, body in cut.items():
        if body == text:
            raise SystemExit(f"{name}: the function's text changed; update bench/append_cost.py")
    return {
        name: body.replace("FUNCTION events_append(", f"FUNCTION {name}(", 1)
        for name, body in cut.items()
    }


Way = Callable[[psycopg.AsyncConnection[Any], str, int], Awaitable[None]]

DATA_TEXT = canonical_json(MOVE)
METADATA_TEXT = canonical_json(METADATA)
DIGEST = hashlib.sha256(DATA_TEXT.encode()).digest()


async def plain(conn: psycopg.AsyncConnection[Any], stream: str, version: int) -> None:
    """One INSERT into the plain table."""
    await conn.execute(
        "INSERT INTO plain_events (stream, version, event_id, type, data, metadata, hash) "
        "VALUES (%s, %s, %s, %s, %s, %s, %s)",
        (stream, version + 1, uuid.uuid4(), MOVE_TYPE, Jsonb(MOVE), Jsonb(METADATA), DIGEST),
    )


async def plain_notify(conn: psycopg.AsyncConnection[Any], stream: str, version: int) -> None:
    """The plain INSERT, then a NOTIFY like the store's."""
    await plain(conn, stream, version)
    await conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, stream))


def function_call(name: str, channel: str | None) -> Way:
    """Return a way calling the function ``name`` with ready texts."""
    sql = CALL.format(name=name)

    async def call(conn: psycopg.AsyncConnection[Any], stream: str, version: int) -> None:
        params = (
            stream,
            version,
            "{" + str(uuid.uuid4()) + "}",
            "{" + MOVE_TYPE + "}",
            '{"' + DATA_TEXT.replace("\\", "\\\\").replace('"', '\\"') + '"}',
            '{"' + METADATA_TEXT.replace("\\", "\\\\").replace('"', '\\"') + '"}',
            channel,
        )
        await (await conn.execute(sql, params)).fetchall()

    return call


def store_append(channel: str | None) -> Way:
    """Return a way calling ``store.events.append``."""

    async def call(conn: psycopg.AsyncConnection[Any], stream: str, version: int) -> None:
        await append(conn, stream, new_events(1), version, channel=channel)

    return call


WAYS: dict[str, Way] = {
    "plain": plain,
    "plain+notify": plain_notify,
    "fn-nolock": function_call("events_append_nolock", None),
    "fn-nohash": function_call("events_append_nohash", None),
    "fn-noset": function_call("events_append_noset", None),
    "fn": function_call("events_append", None),
    "fn+notify": function_call("events_append", CHANNEL),
    "append-nf": store_append(None),
    "append": store_append(CHANNEL),
}


async def run_way(url: str, way: Way, appends: int) -> tuple[float, float, float]:
    """Make ``appends`` appends one way; return wall, client CPU and backend CPU seconds."""
    async with await psycopg.AsyncConnection.connect(url) as conn:
        row = await (await conn.execute("SELECT pg_backend_pid()")).fetchone()
        assert row is not None
        backend = psutil.Process(row[0])
        stream = f"cuttle-{uuid.uuid4()}"
        # A few appends first: psycopg prepares a statement on its fifth run.
        for version in range(6):
            await way(conn, stream, version)
            await conn.commit()
        before = backend.cpu_times()
        cpu, wall = time.process_time(), time.perf_counter()
        for version in range(6, 6 + appends):
            await way(conn, stream, version)
            await conn.commit()
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        after = backend.cpu_times()
    return wall, cpu, (after.user + after.system) - (before.user + before.system)


def main(argv: list[str] | None = None) -> int:
    """Run every way, alternating, and print the costs per append."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--appends", type=int, default=400, help="appends per run")
    parser.add_argument("--rounds", type=int, default=5, help="runs per way, alternating")
    args = parser.parse_args(argv)

    configured = os.environ.get("MATCHLOG_DATABASE_URL")
    admin_url = canonical_url(configured) if configured else start_embedded(scratch_dir()).admin_url
    name = fresh_database(admin_url)
    url = with_database(admin_url, name)
    try:
        with psycopg.connect(url) as conn:
            conn.execute(PLAIN_TABLE)
            for body in variants().values():
                conn.execute(body)
        figures: dict[str, list[tuple[float, float, float]]] = {k: [] for k in WAYS}
        names = list(WAYS)
        for number in range(args.rounds):
            # Rotate the order so a slow spell does not always hit the same way.
            shift = number % len(names)
            for key in names[shift:] + names[:shift]:
                figures[key].append(asyncio.run(run_way(url, WAYS[key], args.appends)))
        print(f"{args.appends} appends a run, median of {args.rounds} runs, µs per append")
        print(f"{'way':13s} {'wall':>7s} {'client':>7s} {'backend':>7s} {'rate/plain':>10s}")
        for key in names:
            wall, cpu, backend = (
                statistics.median(f[i] for f in figures[key]) / args.appends * 1e6 for i in range(3)
            )
            ratio = statistics.median(
                p[0] / f[0] for p, f in zip(figures["plain"], figures[key], strict=True)
            )
            print(f"{key:13s} {wall:7.0f} {cpu:7.0f} {backend:7.0f} {ratio:10.2f}")
    finally:
        with psycopg.connect(admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
