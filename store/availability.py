"""Whether the database answers, and a pool that fails fast while it does not.

A lost database (a killed or restarted server) shows first as a connection that
comes back to the pool broken, or fails the watch's check every ``check_every``
seconds. The watch then probes a fresh connection: if none can be had, the database
is *down*: ``WatchedPool.getconn`` raises ``DatabaseUnavailable`` at once (no wait
for the pool's timeout), the requests already waiting for a connection get the same
error, and the probe tries again every ``interval``. When it answers, the pool's idle
connections are checked (broken ones are replaced) and connections are given out
again. Each change is logged in one line.

A write in flight when its connection broke has either committed (PostgreSQL wrote
its commit record before the connection went) or not: its transaction is all or
nothing, so it is recorded once or not at all.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

import psycopg
from psycopg_pool import AsyncConnectionPool, PoolTimeout

_log = logging.getLogger("matchlog.database")
# psycopg_pool logs each failed reconnection and each broken connection it discards:
# while the database is away that is a line a second. The watch says it once.
logging.getLogger("psycopg.pool").setLevel(logging.ERROR)

CONNECTION_LOST_STATES = frozenset({"57P01", "57P02", "57P03"})
"""SQLSTATEs of a server that is shutting down, crashed or not yet accepting connections."""


class DatabaseUnavailable(psycopg.OperationalError):
    """The database is known to be down: no connection was tried."""


def is_connection_error(error: BaseException) -> bool:
    """Whether ``error`` says the database could not be reached (not what a statement did).

    >>> is_connection_error(DatabaseUnavailable('down'))
    True
    >>> is_connection_error(psycopg.errors.QueryCanceled())
    False
    """
    if isinstance(error, PoolTimeout | DatabaseUnavailable):
        return True
    if not isinstance(error, psycopg.OperationalError):
        return False
    state = error.sqlstate
    return state is None or state.startswith("08") or state in CONNECTION_LOST_STATES


class DatabaseWatch:
    """Whether the database is up, as this process last found it; see the module's doc.

    Use it as ``async with DatabaseWatch(conninfo) as watch: ...`` with a
    ``WatchedPool`` made with ``watch=watch``.
    """

    def __init__(
        self,
        conninfo: str,
        *,
        interval: float = 1.0,
        check_every: float = 5.0,
        probe_timeout: float = 3.0,
    ) -> None:
        self._conninfo = conninfo
        self._interval = interval
        self._check_every = check_every
        self._probe_timeout = probe_timeout
        self._pool: WatchedPool | None = None
        self._probing: asyncio.Task[None] | None = None
        self._checking: asyncio.Task[None] | None = None
        self.up = True
        """False from a failed probe until one succeeds."""
        self.down_since: float | None = None
        """``time.monotonic()`` when the database was last found down (``None`` while up)."""
        self.losses = 0
        """How many times the database was found down."""

    async def __aenter__(self) -> DatabaseWatch:
        self._checking = asyncio.create_task(self._check_while_up())
        return self

    async def __aexit__(self, *exc: object) -> None:
        for task in (self._checking, self._probing):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    def attach(self, pool: WatchedPool) -> None:
        """Watch for ``pool``: check it in the background, fail its waiters while down."""
        self._pool = pool

    def suspect(self) -> None:
        """A connection broke: probe the database now (unless a probe is under way)."""
        if self._probing is None or self._probing.done():
            self._probing = asyncio.get_running_loop().create_task(self._probe_until_up())

    async def _check_while_up(self) -> None:
        """Notice a lost database while no request does: check a pooled connection."""
        while True:
            await asyncio.sleep(self._check_every)
            if not self.up or self._pool is None:
                continue
            try:
                async with self._pool.connection(timeout=self._probe_timeout) as conn:
                    await conn.execute("SELECT 1")
            except PoolTimeout:
                continue  # every connection busy: the database answers others
            except psycopg.Error as e:
                if is_connection_error(e):
                    self.suspect()

    async def _probe_until_up(self) -> None:
        while True:
            reason = await self._probe()
            if reason is None:
                break
            if self.up:
                self.up = False
                self.down_since = time.monotonic()
                self.losses += 1
                _log.warning("database unavailable (%s): answering 503 until it is back", reason)
                if self._pool is not None:
                    await self._pool.fail_waiting(DatabaseUnavailable(reason))
            await asyncio.sleep(self._interval)
        if self._pool is not None:
            # Broken idle connections are replaced now, not handed to the next requests.
            await self._pool.check()
        if not self.up:
            since = self.down_since or time.monotonic()
            self.up = True
            self.down_since = None
            _log.warning("database is back after %.1f s", time.monotonic() - since)

    async def _probe(self) -> str | None:
        """Return why a fresh connection cannot be had and used, or ``None`` if it can."""
        try:
            async with await psycopg.AsyncConnection.connect(
                self._conninfo,
                autocommit=True,
                connect_timeout=max(1, round(self._probe_timeout)),
            ) as conn:
                await conn.execute("SELECT 1")
        except psycopg.Error as e:
            # The first line only: the rest repeats the server's address.
            return (str(e).strip().splitlines() or [type(e).__name__])[0]
        return None


class WatchedPool(AsyncConnectionPool[psycopg.AsyncConnection[Any]]):
    """A connection pool that refuses at once while its ``DatabaseWatch`` finds the database down.

    A connection that comes back broken makes the watch probe the database.
    """

    def __init__(self, conninfo: str, *, watch: DatabaseWatch, **kwargs: Any) -> None:
        super().__init__(conninfo, **kwargs)
        self.watch = watch
        watch.attach(self)

    async def getconn(self, timeout: float | None = None) -> psycopg.AsyncConnection[Any]:
        """Return a connection, or raise ``DatabaseUnavailable`` at once while the database is down.

        Raises:
            DatabaseUnavailable: the watch last found the database down.
            PoolTimeout: no connection came free within ``timeout``.
        """
        if not self.watch.up:
            raise DatabaseUnavailable("the database is unavailable")
        try:
            return await super().getconn(timeout)
        except PoolTimeout:
            # The pool could not connect in time: the database may be gone.
            self.watch.suspect()
            raise

    async def putconn(self, conn: psycopg.AsyncConnection[Any]) -> None:
        """Give ``conn`` back; a broken one makes the watch probe the database."""
        if conn.broken:
            self.watch.suspect()
        await super().putconn(conn)

    async def fail_waiting(self, error: Exception) -> None:
        """Fail the requests waiting for a connection with ``error`` (the database is down).

        They would otherwise wait out the pool's timeout for a connection that cannot
        be made. psycopg_pool has no public call for it: this uses its waiting queue.
        """
        async with self._lock:
            waiting = list(self._waiting)
            self._waiting.clear()
        for client in waiting:
            await client.fail(error)


__all__ = ["DatabaseUnavailable", "DatabaseWatch", "WatchedPool", "is_connection_error"]
