"""store.feeds: open feeds counted in the database, by process leases (migration 0018)."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import psycopg
from psycopg_pool import AsyncConnectionPool

from store.feeds import FeedLedger


def rows(url: str) -> int:
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT count(*) FROM live_feeds").fetchone()
    assert row is not None
    return int(row[0])


async def eventually(check: Callable[[], Awaitable[bool]], seconds: float = 10) -> None:
    """Wait until ``check`` holds (the ledger's task works in the background)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not await check():
        assert loop.time() < deadline
        await asyncio.sleep(0.05)


def with_ledgers(
    database_url: str, body: Callable[[FeedLedger, FeedLedger], Awaitable[Any]], lease: float = 30
) -> Any:
    """Run ``body`` with two ledgers (two processes) on one database."""

    async def scenario() -> Any:
        async with (
            AsyncConnectionPool(database_url, min_size=1, open=False) as pool,
            FeedLedger(pool, lease=lease) as a,
            FeedLedger(pool, lease=lease) as b,
        ):
            return await body(a, b)

    return asyncio.run(scenario())


class TestFeedLedger:
    def test_a_clients_feeds_on_two_nodes_count_together_and_a_close_frees_one(
        self, database_url: str
    ) -> None:
        async def body(a: FeedLedger, b: FeedLedger) -> list[int]:
            first = uuid.uuid4()
            held = [await a.open(first, "address x", 2), await b.open(uuid.uuid4(), "address x", 2)]
            held.append(await b.open(uuid.uuid4(), "address x", 2))  # refused
            held.append(await a.open(uuid.uuid4(), "address y", 2))  # another client
            a.close(first)

            async def freed() -> bool:
                return await asyncio.to_thread(rows, database_url) == 2

            await eventually(freed)
            held.append(await b.open(uuid.uuid4(), "address x", 2))
            return held

        assert [0, 1, 2, 0, 1] == with_ledgers(database_url, body)

    def test_a_dead_nodes_feeds_stop_counting_when_its_lease_ends_and_a_renewal_clears_them(
        self, database_url: str
    ) -> None:
        dead = uuid.uuid4()
        with psycopg.connect(database_url) as conn:  # a process killed with a feed open
            conn.execute(
                "INSERT INTO live_feed_nodes VALUES (%s, clock_timestamp() + interval '1 s')",
                (dead,),
            )
            conn.execute(
                "INSERT INTO live_feeds (feed_id, node_id, client_key) VALUES (%s, %s, 'x')",
                (uuid.uuid4(), dead),
            )

        async def scenario() -> list[int]:
            async with (
                AsyncConnectionPool(database_url, min_size=1, open=False) as pool,
                FeedLedger(pool, lease=0.6) as ledger,
            ):
                held = [await ledger.open(uuid.uuid4(), "x", 1)]  # the dead one's lease holds
                await asyncio.sleep(1.2)
                held.append(await ledger.open(uuid.uuid4(), "x", 1))

                async def only_mine() -> bool:
                    return await asyncio.to_thread(rows, database_url) == 1

                await eventually(only_mine)  # a renewal (every 0.2 s) took the dead one's
                return held

        assert [1, 0] == asyncio.run(scenario())

    def test_a_node_that_finds_its_lease_gone_takes_a_new_one_and_enters_its_feeds_again(
        self, database_url: str, owner_url: str
    ) -> None:
        async def body(a: FeedLedger, b: FeedLedger) -> list[int]:
            held = [await a.open(uuid.uuid4(), "address x", 2)]
            with psycopg.connect(owner_url) as conn:  # another node's renewal cleared it
                conn.execute("DELETE FROM live_feed_nodes WHERE node_id = %s", (a.node_id,))
            held.append(await b.open(uuid.uuid4(), "address x", 2))
            # a's open finds its lease gone, renews it and enters its first feed again.
            held.append(await a.open(uuid.uuid4(), "address x", 2))
            held.append(await b.open(uuid.uuid4(), "address x", 2))
            return held

        assert [0, 0, 2, 2] == with_ledgers(database_url, body)
