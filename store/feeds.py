"""Open live feeds counted in the database, so a client's cap holds across processes.

Each server process is a node with a lease in ``live_feed_nodes`` and a row in
``live_feeds`` for each feed it serves (migration 0018). ``FeedLedger.open`` adds a
feed in one call (``live_feed_open``: the client's advisory lock, its count on nodes
whose lease is current, the insert) and ``close`` queues its row's deletion, which a
task of the ledger's own sends at once (closes that arrive together go in one
statement). One client's opens in a process take turns before they take a
connection, and one the process alone already holds ``limit`` of is refused without
asking the database. The same task renews the lease every third of its length and
clears the nodes whose lease has lapsed: a killed process's feeds stop counting once
its lease is over. A node that finds its own lease gone (cut off from the database
longer than the lease) takes a new one and enters its open feeds again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import psycopg
from psycopg_pool import AsyncConnectionPool, PoolTimeout

_log = logging.getLogger(__name__)

LEASE_LAPSED = -1
"""What ``live_feed_open`` answers when the node's own lease is not current."""


class FeedLedger:
    """One process's open feeds, in the database; use it as ``async with FeedLedger(...)``."""

    def __init__(self, pool: AsyncConnectionPool[Any], *, lease: float = 30.0) -> None:
        self.node_id = uuid.uuid4()
        self._pool = pool
        self._lease = lease
        self._feeds: dict[uuid.UUID, str] = {}
        self._by_client: Counter[str] = Counter()
        self._opening: dict[str, tuple[asyncio.Lock, int]] = {}
        self._closed: set[uuid.UUID] = set()
        self._wake = asyncio.Event()
        self._renewing = asyncio.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> FeedLedger:
        self._loop = asyncio.get_running_loop()
        await self._renew()
        self._task = asyncio.create_task(self._run())
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._task is not None
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        try:
            async with self._pool.connection() as conn:
                # The cascade takes the node's feeds: a restart frees them at once.
                await conn.execute(
                    "DELETE FROM live_feed_nodes WHERE node_id = %s", (self.node_id,)
                )
        except (psycopg.Error, PoolTimeout) as e:
            _log.warning("live feeds' lease not given back (it lapses by itself): %s", e)

    async def open(self, feed_id: uuid.UUID, client: str, limit: int) -> int:
        """Count ``client``'s open feeds and, if fewer than ``limit``, add ``feed_id``.

        Returns how many the client held before: the feed is open if that is below
        ``limit``. An open cancelled midway still completes, and is then closed.
        """
        async with self._one_at_a_time(client):
            if self._by_client[client] >= limit:
                return self._by_client[client]  # this process alone holds them all
            opening = asyncio.ensure_future(self._open(feed_id, client, limit))
            try:
                held = await asyncio.shield(opening)
            except asyncio.CancelledError:
                opening.add_done_callback(lambda _: self.close(feed_id))
                raise
            if held < limit:
                self._feeds[feed_id] = client
                self._by_client[client] += 1
            return held

    @asynccontextmanager
    async def _one_at_a_time(self, client: str) -> AsyncIterator[None]:
        """Take a client's turn in this process: its opens wait here, not on a connection.

        The database serialises one client's opens anyway (its advisory lock); a crowd
        of them waiting there would each hold one of the pool's few connections.
        """
        lock, waiting = self._opening.get(client, (asyncio.Lock(), 0))
        self._opening[client] = (lock, waiting + 1)
        try:
            async with lock:
                yield
        finally:
            lock, waiting = self._opening[client]
            if waiting == 1:
                del self._opening[client]
            else:
                self._opening[client] = (lock, waiting - 1)

    async def _open(self, feed_id: uuid.UUID, client: str, limit: int) -> int:
        for _ in range(2):
            async with self._pool.connection() as conn:
                cur = await conn.execute(
                    "SELECT live_feed_open(%s, %s, %s, %s)", (feed_id, self.node_id, client, limit)
                )
                row = await cur.fetchone()
            assert row is not None
            held: int = row[0]
            if held != LEASE_LAPSED:
                return held
            await self._renew()
        raise psycopg.OperationalError("the live feeds' lease could not be renewed")

    def close(self, feed_id: uuid.UUID) -> None:
        """Stop counting ``feed_id`` (any thread; its row goes at once, in the background)."""
        client = self._feeds.pop(feed_id, None)
        if client is not None:
            self._by_client[client] -= 1
            if not self._by_client[client]:
                del self._by_client[client]
        self._closed.add(feed_id)
        if self._loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop is already closed
                self._loop.call_soon_threadsafe(self._wake.set)

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        every = self._lease / 3
        renew_at = loop.time() + every
        failing = False
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), max(0.0, renew_at - loop.time()))
            self._wake.clear()
            try:
                if self._closed:
                    await self._flush()
                if loop.time() >= renew_at:
                    await self._renew()
                    renew_at = loop.time() + every
                failing = False
            except (psycopg.Error, PoolTimeout) as e:
                # One line a loss, not a traceback nor a line a round: the next round
                # tries again.
                if not failing:
                    _log.warning("live feeds' ledger could not reach the database: %s", e)
                failing = True
                await asyncio.sleep(min(1.0, every))

    async def _flush(self) -> None:
        gone = list(self._closed)
        async with self._pool.connection() as conn:
            await conn.execute("DELETE FROM live_feeds WHERE feed_id = ANY(%s)", (gone,))
        self._closed.difference_update(gone)

    async def _renew(self) -> None:
        async with self._renewing, self._pool.connection() as conn:
            cur = await conn.execute("SELECT live_feed_lease(%s, %s)", (self.node_id, self._lease))
            row = await cur.fetchone()
            assert row is not None
            if row[0] and self._feeds:
                # The lease had lapsed and was cleared with its feeds: enter them again.
                await conn.execute(
                    "INSERT INTO live_feeds (feed_id, node_id, client_key)"
                    " SELECT f, %s, c FROM unnest(%s::uuid[], %s::text[]) AS t(f, c)"
                    " ON CONFLICT (feed_id) DO NOTHING",
                    (self.node_id, list(self._feeds), list(self._feeds.values())),
                )


__all__ = ["LEASE_LAPSED", "FeedLedger"]
