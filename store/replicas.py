"""Reads served by a hot standby: where it has replayed to, and waiting for it to get there.

PostgreSQL replicates itself (streaming replication); this module only watches it.
A position is a WAL location (an LSN, ``16/B374D848``): the primary's
``pg_current_wal_lsn()`` after a commit is at or past that commit's record, and a
standby whose ``pg_last_wal_replay_lsn()`` has reached it shows the commit to every
query that starts after.

``ReplayWatch`` samples the read database's replay position (and the primary's WAL
position, for the lag) once a second in the background; while someone waits for a
position it samples every few milliseconds, one query for all the waiters. Nothing
of it runs per request.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter
from typing import Any

import psycopg
from psycopg_pool import AsyncConnectionPool

from store.availability import WatchedPool

_log = logging.getLogger("matchlog.database")

_REPLAYED = (
    "SELECT CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn()"
    " ELSE pg_current_wal_lsn() END,"
    " extract(epoch FROM now() - pg_last_xact_replay_timestamp())"
)
"""A standby's replay position and the age of the last transaction it replayed; a
server that is not in recovery (the primary itself, a promoted standby) has replayed
all it wrote."""

CURRENT_POSITION = "SELECT pg_current_wal_lsn()"
"""The primary's WAL position: after a commit, at or past the commit's record."""


def parse_position(text: str) -> int | None:
    """Return the LSN ``text`` (``hi/lo`` in hexadecimal) as a number, ``None`` if it is not one.

    >>> parse_position('16/B374D848')
    97500059720
    >>> parse_position('0/0'), parse_position('nonsense'), parse_position('1/-2')
    (0, None, None)
    """
    high, slash, low = text.strip().partition("/")
    if not slash or not 0 < len(high) <= 8 or not 0 < len(low) <= 8:
        return None
    try:
        if not all(c in "0123456789abcdefABCDEF" for c in high + low):
            return None
        return (int(high, 16) << 32) | int(low, 16)
    except ValueError:
        return None


def format_position(lsn: int) -> str:
    """Return an LSN as PostgreSQL writes it.

    >>> format_position(97500059720)
    '16/B374D848'
    """
    return f"{lsn >> 32:X}/{lsn & 0xFFFFFFFF:X}"


async def current_position(conn: psycopg.AsyncConnection[Any]) -> int:
    """Return the primary's WAL position (``CURRENT_POSITION``) as a number."""
    cur = await conn.execute(CURRENT_POSITION)
    row = await cur.fetchone()
    assert row is not None
    position = parse_position(str(row[0]))
    assert position is not None
    return position


class WalPositions:
    """The primary's WAL position for the answers of writes, one statement for all waiting.

    A write asks once it has committed; the statement that answers it starts after
    the ask, so its position is at or past the write's commit. Writes that ask while
    a statement is under way share the next one (as group commit shares a COMMIT),
    on an autocommit connection of the pool: one round trip, no transaction.
    """

    def __init__(self, pool: AsyncConnectionPool[Any]) -> None:
        self._pool = pool
        self._next: asyncio.Future[int] | None = None
        self._reading: asyncio.Task[None] | None = None
        self.reads = 0
        """Statements run (each answers every write that waited for it)."""

    async def after_commit(self) -> int:
        """Return a position at or past every commit made before the call.

        Raises:
            psycopg.Error: the primary could not be read.
        """
        if self._next is None:
            self._next = asyncio.get_running_loop().create_future()
        future = self._next
        if self._reading is None:
            self._reading = asyncio.create_task(self._read())
        # Shielded: one caller leaving must not cancel the read the others await.
        return await asyncio.shield(future)

    async def _read(self) -> None:
        try:
            while (future := self._next) is not None:
                self._next = None
                try:
                    async with self._pool.connection() as conn:
                        await conn.set_autocommit(True)
                        try:
                            position = await current_position(conn)
                        finally:
                            await conn.set_autocommit(False)
                    self.reads += 1
                except Exception as e:
                    future.set_exception(e)
                    future.exception()  # retrieved: a caller that left leaves no warning
                else:
                    future.set_result(position)
        finally:
            self._reading = None


class ReplayWatch:
    """How far the read database has replayed the primary's WAL; see the module's doc.

    Use it as ``async with ReplayWatch(primary, reads) as watch: ...``.
    """

    def __init__(
        self,
        primary: AsyncConnectionPool[Any],
        reads: AsyncConnectionPool[Any],
        *,
        interval: float = 1.0,
        wait_interval: float = 0.005,
    ) -> None:
        self._primary = primary
        self._reads = reads
        self._interval = interval
        self._wait_interval = wait_interval
        self._waiters = 0
        self._wake = asyncio.Event()
        self._sampled = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.replayed: int | None = None
        """The read database's replay position when last sampled (``None``: not yet)."""
        self.written: int | None = None
        """The primary's WAL position when last sampled (once a second)."""
        self.replay_age: float | None = None
        """Seconds since the last transaction the standby replayed committed on the primary."""

    async def __aenter__(self) -> ReplayWatch:
        self._task = asyncio.create_task(self._run())
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._task is not None
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task

    @property
    def lag_bytes(self) -> int | None:
        """Bytes of WAL the primary had written that the standby had not replayed."""
        if self.written is None or self.replayed is None:
            return None
        return max(0, self.written - self.replayed)

    @property
    def lag_seconds(self) -> float | None:
        """How old the standby's view is: 0 when it has replayed all the primary wrote, else
        the age of the last transaction it replayed (an idle primary ages nothing)."""
        lag = self.lag_bytes
        if lag is None:
            return None
        return 0.0 if lag == 0 else max(0.0, self.replay_age or 0.0)

    async def wait_for(self, position: int, timeout: float) -> bool:
        """Wait until the read database has replayed ``position``; ``False`` after ``timeout`` s."""
        if self.replayed is not None and self.replayed >= position:
            return True
        deadline = time.monotonic() + timeout
        self._waiters += 1
        self._wake.set()
        try:
            while self.replayed is None or self.replayed < position:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._sampled.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._sampled.wait(), left)
            return True
        finally:
            self._waiters -= 1

    async def _run(self) -> None:
        last_written = 0.0
        while True:
            try:
                if time.monotonic() - last_written >= self._interval:
                    async with self._primary.connection(timeout=self._interval) as conn:
                        self.written = await current_position(conn)
                    last_written = time.monotonic()
                await self._sample()
            except Exception as e:  # a lost database: the pools' watches say so
                _log.debug("replay position not sampled: %s", e)
                self._sampled.set()
                await asyncio.sleep(self._interval)
                continue
            self._sampled.set()
            if self._waiters:
                await asyncio.sleep(self._wait_interval)
            else:
                self._wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), self._interval)

    async def _sample(self) -> None:
        async with self._reads.connection(timeout=self._interval) as conn:
            cur = await conn.execute(_REPLAYED)
            row = await cur.fetchone()
        assert row is not None
        self.replayed = None if row[0] is None else parse_position(str(row[0]))
        self.replay_age = None if row[1] is None else float(row[1])


class Databases:
    """The primary (writes, and reads that must see a write) and the database reads go to.

    Without a read database ``reads`` is the primary and ``replay`` is ``None``:
    every read goes to the primary, as before there were standbys.
    """

    def __init__(
        self,
        primary: AsyncConnectionPool[Any],
        reads: AsyncConnectionPool[Any] | None = None,
        replay: ReplayWatch | None = None,
        *,
        wait: float = 2.0,
    ) -> None:
        self.primary = primary
        self.reads = primary if reads is None else reads
        self.replay = replay
        self.wait = wait
        """Seconds a read waits for the standby to replay the position it carries."""
        self.positions = WalPositions(primary)
        """The primary's position for write answers (``Matchlog-Position``)."""
        self.routed: Counter[str] = Counter()
        """Reads routed to each database (``primary``, ``standby``), for the metrics."""

    @property
    def standby(self) -> bool:
        """Whether reads go to a database of their own."""
        return self.reads is not self.primary

    async def for_read(self, position: int | None = None) -> AsyncConnectionPool[Any]:
        """Return the pool a read goes to: the standby once it has replayed ``position``.

        The primary when there is no standby, when the standby is found down, or when
        it has not replayed ``position`` within ``wait`` seconds.
        """
        pool = self.reads
        if self.replay is not None and (
            (isinstance(pool, WatchedPool) and not pool.watch.up)
            or (position is not None and not await self.replay.wait_for(position, self.wait))
        ):
            pool = self.primary
        self.routed["standby" if pool is not self.primary else "primary"] += 1
        return pool


__all__ = [
    "CURRENT_POSITION",
    "Databases",
    "ReplayWatch",
    "WalPositions",
    "current_position",
    "format_position",
    "parse_position",
]
