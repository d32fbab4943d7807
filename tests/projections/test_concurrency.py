"""Standings stay whole when two matches of a competition end in concurrent transactions."""

from __future__ import annotations

import asyncio
import json
import uuid

import psycopg

from projections.standings import find_standings, recompute_standings
from store import accounts


async def finish(conn: psycopg.AsyncConnection[object], competition: uuid.UUID, n: int) -> None:
    """Write a finished 2-player Cuttle series row, as the series projector does."""
    match_id = uuid.uuid4()
    await conn.execute(
        "INSERT INTO match_series (match_id, stream, game, variant, competition_id, players,"
        " rounds, totals, result, ended_position)"
        " VALUES (%s, %s, 'cuttle', 'standard', %s, %s::uuid[], %s, '{}', %s, %s)",
        (
            match_id,
            f"cuttle-{match_id}",
            competition,
            [str(uuid.uuid4()), str(uuid.uuid4())],
            json.dumps([{"round": 1, "wins": [1, 0]}]),
            json.dumps({"winners": [0], "losers": [1]}),
            n,
        ),
    )


async def waiting_for_lock(url: str, pid: int) -> None:
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as watcher:
        for _ in range(200):
            cur = await watcher.execute(
                "SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", (pid,)
            )
            row = await cur.fetchone()
            if row is not None and row[0] == "Lock":
                return
            await asyncio.sleep(0.05)
    raise AssertionError("the second recompute never waited")


def test_concurrent_match_ends_both_count(database_url: str) -> None:
    async def go() -> int:
        async with await psycopg.AsyncConnection.connect(database_url) as setup:
            competition, _ = await accounts.create_competition(
                setup, name="Cup", game="cuttle", variant="standard", match_format="short"
            )
            await setup.commit()
        first = await psycopg.AsyncConnection.connect(database_url)
        second = await psycopg.AsyncConnection.connect(database_url)
        try:
            await finish(first, competition.id, 1)
            await recompute_standings(first, competition.id)
            await finish(second, competition.id, 2)
            racing = asyncio.create_task(recompute_standings(second, competition.id))
            await waiting_for_lock(database_url, second.info.backend_pid)
            await first.commit()
            await racing
            await second.commit()
        finally:
            await first.close()
            await second.close()
        async with await psycopg.AsyncConnection.connect(database_url) as reader:
            standings = await find_standings(reader, competition.id)
        assert standings is not None
        return int(standings["matches"])

    assert 2 == asyncio.run(go())
