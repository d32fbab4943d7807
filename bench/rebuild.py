"""Rebuild speed: recompute every read model from the log; prints events/s.

    python bench/rebuild.py                      # 200 matches, 3 timed rebuilds
    python bench/rebuild.py --matches 400 --repeats 5

It starts the embedded PostgreSQL in a temporary directory (or uses
MATCHLOG_DATABASE_URL, which should then name an empty, disposable database),
records Cuttle and Kozel matches in two competitions straight through the
recorder (with the app's inline projectors; one transaction per round), then
times ``projections.rebuild.rebuild`` and prints events/s per run and the median.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import psycopg  # noqa: E402
from psycopg_pool import AsyncConnectionPool  # noqa: E402

from bench.load_plan import plan_match  # noqa: E402
from bench.support import scratch_dir  # noqa: E402
from domain.stream import CreateMatch, MatchConfig, Play, StartRound  # noqa: E402
from projections.rebuild import INLINE_PROJECTORS, rebuild  # noqa: E402
from store import accounts, migrate  # noqa: E402
from store.database import resolve_database_url  # noqa: E402
from store.recorder import Recorder, match_stream  # noqa: E402


async def record_matches(url: str, count: int, seed: int) -> int:
    """Record ``count`` matches (half Cuttle, half Kozel) in two competitions."""
    rng = random.Random(seed)
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        people = [
            str((await accounts.create_player(conn, display_name=f"Player {i}"))[0].id)
            for i in range(8)
        ]
        cuttle, _ = await accounts.create_competition(
            conn,
            name="Cuttle league",
            game="cuttle",
            variant="standard",
            match_format="extended",
            tiebreaks=["head-to-head", "sonneborn-berger"],
            public_reads=True,
        )
        kozel, _ = await accounts.create_competition(
            conn,
            name="Kozel league",
            game="kozel",
            variant="default",
            match_format={"loss_limit": 12},
            tiebreaks=["loss-point-difference"],
            public_reads=True,
        )
    async with AsyncConnectionPool(url, min_size=1, max_size=2, open=False) as pool:
        recorder = Recorder(pool, INLINE_PROJECTORS)
        for i in range(count):
            game = "cuttle" if i % 2 else "kozel"
            seats = rng.sample(people, 2 if game == "cuttle" else 4)
            plan = plan_match(game, seats, rng)
            competition = cuttle if game == "cuttle" else kozel
            config = MatchConfig(
                game,
                plan.body["variant"],
                tuple(seats),
                0,
                "scorer",
                plan.body["format"],
                plan.body["options"] or {},
                competition_id=str(competition.id),
            )
            stream = match_stream(game, uuid.uuid4())
            await recorder.record(stream, [CreateMatch(config)], expected_version=0)
            for deal, moves in plan.rounds:
                commands: list[Any] = [StartRound(deal), *(Play(m) for m in moves)]
                await recorder.record(stream, commands, expected_version=None)
    async with await psycopg.AsyncConnection.connect(url) as conn:
        cur = await conn.execute("SELECT count(*) FROM events")
        row = await cur.fetchone()
    return int(row[0]) if row else 0


async def timed_rebuild(url: str) -> tuple[int, float]:
    """Rebuild once; return (events folded, seconds)."""
    async with await psycopg.AsyncConnection.connect(url) as conn:
        start = time.perf_counter()
        stats = await rebuild(conn)
        return stats.events, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--matches", type=int, default=200, help="matches to record")
    parser.add_argument("--repeats", type=int, default=3, help="timed rebuilds")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)

    data_dir = scratch_dir()
    url = resolve_database_url(os.environ.get("MATCHLOG_DATABASE_URL"), data_dir)
    migrate.upgrade(url)
    print(f"recording {args.matches} matches through the recorder ...", flush=True)
    start = time.perf_counter()
    events = asyncio.run(record_matches(url, args.matches, args.seed))
    print(f"recorded {events} events in {time.perf_counter() - start:.1f} s", flush=True)
    rates = []
    for run in range(1, args.repeats + 1):
        folded, seconds = asyncio.run(timed_rebuild(url))
        rates.append(folded / seconds)
        print(f"rebuild {run}: {folded} events in {seconds:.2f} s = {rates[-1]:,.0f} events/s")
    print(f"median: {statistics.median(rates):,.0f} events/s (target >= 50,000)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
