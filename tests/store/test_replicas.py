"""The primary's position for write answers: at or past every commit made before the ask."""

from __future__ import annotations

import asyncio

from service.wiring import open_pool
from store.replicas import WalPositions, parse_position
from tests.store.test_events import run


def test_writes_asking_together_share_a_statement_and_each_gets_a_position_past_its_commit(
    database_url: str,
) -> None:
    async def scenario() -> tuple[list[tuple[int, int]], int]:
        async with open_pool(database_url, max_size=4) as pool:
            positions = WalPositions(pool)

            async def write(n: int) -> tuple[int, int]:
                async with pool.connection() as conn:
                    await conn.execute("CREATE TEMP TABLE IF NOT EXISTS t (n int)")
                    await conn.execute("INSERT INTO t VALUES (%s)", (n,))
                    await conn.commit()
                    cur = await conn.execute("SELECT pg_current_wal_lsn()::text")
                    row = await cur.fetchone()
                    assert row is not None
                    committed = parse_position(row[0])
                    await conn.rollback()
                assert committed is not None
                return committed, await positions.after_commit()

            answered = await asyncio.gather(*(write(n) for n in range(40)))
            return answered, positions.reads

    answered, reads = run(scenario())
    assert all(position >= committed for committed, position in answered)
    assert reads < len(answered), "asks under way together share one statement"
