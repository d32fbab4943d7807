"""Client CPU of one read-model insert of many rows: a VALUES list against RowsInsert.

    python bench/rows_insert.py                 # 32 rows an insert, 60 inserts, 3 rounds
    python bench/rows_insert.py --rows 256 --inserts 20

Inserts ``matches``-shaped rows into a temporary table on one connection, the two ways
alternating in each round: a ``VALUES`` list with a placeholder per value (what the
projectors did before ``projections/rows.py``), and ``RowsInsert`` (one JSON array
through ``jsonb_to_recordset``). It prints this process's CPU time per insert: the
Python side, which is what an import pays for every batch. The embedded server runs in
a temporary directory, or MATCHLOG_DATABASE_URL's server is used.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.support import scratch_dir
from projections.matches import MATCH_COLUMNS
from projections.rows import RowsInsert
from store.database import canonical_url
from store.embedded import start_embedded

NAMES = ", ".join(name for name, _ in MATCH_COLUMNS)
VALUES_ROW = "(%s, %s, %s, %s, %s, %s::uuid[], %s, %s, %s, %s, %s, %s, %s, %s, %s)"


def rows(count: int) -> list[tuple[Any, ...]]:
    """Return ``count`` finished-match rows with fresh ids."""
    now = datetime.now(UTC)
    made = []
    for _ in range(count):
        match = uuid.uuid4()
        players = [uuid.uuid4() for _ in range(4)]
        score, result = {"points": [7, 12]}, {"winners": [0, 2], "losers": [1, 3]}
        made.append(
            (match, f"kozel-{match}", "kozel", "default", None, players, "server", now,
             120, "finished", 7, score, result, now, now)
        )  # fmt: skip
    return made


async def values_insert(conn: psycopg.AsyncConnection[Any], batch: list[tuple[Any, ...]]) -> None:
    """The replaced way: one placeholder per value, jsonb columns as JSON text."""
    import json

    params = [
        value
        for row in batch
        for value in (*row[:11], json.dumps(row[11]), json.dumps(row[12]), *row[13:])
    ]
    placeholders = ", ".join([VALUES_ROW] * len(batch))
    await conn.execute(f"INSERT INTO bench_matches ({NAMES}) VALUES {placeholders}", params)


async def run(url: str, per_insert: int, inserts: int, rounds: int) -> None:
    """Time both ways, alternating, and print the client CPU per insert."""
    rows_insert = RowsInsert("bench_matches", MATCH_COLUMNS)
    types = ", ".join(f"{name} {kind}" for name, kind in MATCH_COLUMNS)
    async with await psycopg.AsyncConnection.connect(url) as conn:
        await conn.execute(f"CREATE TEMP TABLE bench_matches ({types})")
        await conn.commit()
        for number in range(1, rounds + 1):
            for way in ("VALUES list", "RowsInsert"):
                batches = [rows(per_insert) for _ in range(inserts)]
                started = time.process_time()
                for batch in batches:
                    if way == "RowsInsert":
                        await rows_insert.execute(conn, batch)
                    else:
                        await values_insert(conn, batch)
                spent = (time.process_time() - started) / inserts
                print(f"round {number}: {way:<11} {spent * 1e6:7.0f} µs client CPU an insert")
            await conn.rollback()  # keeps the table small: every round starts empty


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=32, help="rows an insert")
    parser.add_argument("--inserts", type=int, default=60, help="inserts a way and round")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    configured = os.environ.get("MATCHLOG_DATABASE_URL")
    url = canonical_url(configured) if configured else start_embedded(scratch_dir()).url
    asyncio.run(run(url, args.rows, args.inserts, args.rounds))


if __name__ == "__main__":
    main()
