"""One LISTEN connection per server process, fanning the log's new events out.

``EventListener`` holds the process's only listening connection. On each wake-up
(a NOTIFY on ``matchlog_events``, or ``poll_interval`` without one) it reads the new
settled events once, below the snapshot's ``xmin`` as ``read_all`` does, and hands
each batch, in global order, to one callback. So a late commit is handed on late,
never skipped, and live readers cost the database one connection however many
there are.

With a read database (a hot standby) the listener still LISTENs on the primary (a
standby carries no NOTIFY) but reads the new events from the standby, once it has
replayed what the primary had written at the wake-up (``ReplayWatch``, bounded by
``replay_wait``): what it hands on is what the standby shows, settled by the
standby's own snapshot, so no event goes out before the standby has it, and none
is skipped (a wait that runs out reads what is there; the next wake-up reads on).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import psycopg
import psycopg.sql
from psycopg_pool import AsyncConnectionPool

from domain.events import RecordedEvent
from store.events import CHANNEL, read_all
from store.replicas import ReplayWatch, current_position

_log = logging.getLogger(__name__)

Dispatch = Callable[[list[RecordedEvent]], Awaitable[None]]
"""Receives each batch of new settled events, in global order."""

Wanted = Callable[[], bool]
"""Whether anyone wants new events now; while it answers ``False`` nothing is read."""


async def settled_head(conn: psycopg.AsyncConnection[Any]) -> int:
    """Return the last settled event's global position (0 for an empty log)."""
    cur = await conn.execute(
        "SELECT coalesce(max(global_position), 0) FROM events"
        " WHERE global_position < (pg_snapshot_xmin(pg_current_snapshot())::text::bigint << 16)"
    )
    row = await cur.fetchone()
    assert row is not None
    return int(row[0])


class EventListener:
    """Tail the log on one connection and pass every new settled event to ``dispatch``.

    Use it as ``async with EventListener(conninfo, dispatch) as listener: ...``; it
    starts after the log's settled head (``listener.position``). The callback runs
    in the listener's task: while it runs, no other batch is read.

    ``wanted``, when given, is asked at each wake-up: while it answers ``False`` the
    listener reads nothing (its position stays where it was) until ``skip_to`` moves it.
    """

    def __init__(
        self,
        conninfo: str,
        dispatch: Dispatch,
        *,
        channel: str = CHANNEL,
        batch_size: int = 500,
        poll_interval: float = 1.0,
        retry_interval: float = 1.0,
        wanted: Wanted | None = None,
        reads: AsyncConnectionPool[Any] | None = None,
        replay: ReplayWatch | None = None,
        replay_wait: float = 2.0,
    ) -> None:
        """``reads`` and ``replay``: the standby's pool and watch, to read from it."""
        self._conninfo = conninfo
        self._reads = reads if replay is not None else None
        self._replay = replay
        self._replay_wait = replay_wait
        self._dispatch = dispatch
        self._wanted = wanted
        self._listen = psycopg.sql.SQL("LISTEN {}").format(psycopg.sql.Identifier(channel))
        self._batch_size = batch_size
        self._poll = poll_interval
        self._retry = retry_interval
        self._task: asyncio.Task[None] | None = None
        self._conn: psycopg.AsyncConnection[Any] | None = None
        self.position = 0
        """The last global position read (and dispatched)."""

    async def __aenter__(self) -> EventListener:
        # Connect before serving, so a database that refuses fails the start-up.
        self._conn = await self._connect()
        if self._reads is None:
            self.position = await settled_head(self._conn)
        else:
            async with self._reads.connection() as conn:
                self.position = await settled_head(conn)
        self._task = asyncio.create_task(self._run())
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._task is not None
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        if self._conn is not None:
            await self._conn.close()

    def skip_to(self, position: int) -> None:
        """Read on after ``position``, leaving what lies between undelivered.

        Only for while ``wanted`` answers ``False``: no read is then under way.
        """
        self.position = position

    async def _connect(self) -> psycopg.AsyncConnection[Any]:
        conn = await psycopg.AsyncConnection.connect(self._conninfo, autocommit=True)
        await conn.execute(self._listen)
        return conn

    async def _run(self) -> None:
        lost = False
        while True:
            try:
                if self._conn is None or self._conn.closed:
                    self._conn = await self._connect()
                    if lost:
                        _log.info("live listener reconnected")
                        lost = False
                await self._follow(self._conn)
            except psycopg.OperationalError as e:
                # One line a loss, not a traceback nor a line a retry: the loop
                # reconnects and reads on from its position, so nothing is lost, only
                # delayed.
                if not lost:
                    _log.warning(
                        "live listener connection lost, reconnecting: %s",
                        (str(e).strip().splitlines() or [type(e).__name__])[0],
                    )
                lost = True
                if self._conn is not None:
                    await self._conn.close()
                self._conn = None
                await asyncio.sleep(self._retry)
            except Exception:
                # A failing callback must not stop every feed of the process for good.
                _log.exception("live listener failed, restarting")
                await asyncio.sleep(self._retry)

    async def _follow(self, conn: psycopg.AsyncConnection[Any]) -> None:
        while True:
            batch: list[RecordedEvent] = []
            # Without a reader the wake-up costs no statement: the write path's NOTIFYs
            # are then only drained. bench/api_load.py: 1.31 -> 1.02 statements a
            # request; CPU a move unchanged beyond the noise (docs/benchmarks.md).
            if self._wanted is None or self._wanted():
                batch = await self._read(conn)
            if batch:
                await self._dispatch(batch)
                self.position = batch[-1].global_position
            if len(batch) < self._batch_size:
                # A NOTIFY is a hint; the poll covers a horizon that a transaction
                # which never notifies held back past the last wake-up.
                async for _ in conn.notifies(timeout=self._poll, stop_after=1):
                    pass

    async def _read(self, conn: psycopg.AsyncConnection[Any]) -> list[RecordedEvent]:
        """Read the next batch: on ``conn``, or on the standby once it has caught up."""
        if self._reads is None or self._replay is None:
            return await read_all(conn, after_position=self.position, limit=self._batch_size)
        await self._replay.wait_for(await current_position(conn), self._replay_wait)
        async with self._reads.connection() as standby:
            return await read_all(standby, after_position=self.position, limit=self._batch_size)


__all__ = ["Dispatch", "EventListener", "Wanted", "settled_head"]
