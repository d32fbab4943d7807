"""Turns: batches that take their place in the global order as they were numbered.

An event's global position comes from its transaction's id (docs/event-store.md).
So batches written concurrently (an import keeps two in flight, or one per worker
process) land in input order only if each one's transaction gets its id after the
batch before it got its own. A batch holds a ``Turn`` (numbered 0, 1, 2, ... by
whoever hands out the batches); at the start of the batch's transaction (the
recorder's ``on_transaction_start``) ``claim`` takes it, claims the transaction's
id (``claim_position``) and gives the turn back, so the appends themselves run side
by side.

``LocalLine`` serves turns to coroutines of one event loop; ``SharedLine`` to worker
processes (it is built before they start, and handed to them). A line whose work is
given up (an error, an interrupt) is ``abort``ed: a batch that never ran never gives
its turn back, so every turn waiting or yet to wait raises ``TurnsAborted`` instead.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from typing import Any, Protocol

import psycopg

from store.events import claim_position


class TurnsAborted(Exception):
    """The line was aborted: this batch will not get its turn."""


class Turn(Protocol):
    """A batch's place in a line of writers."""

    async def acquire(self) -> None:
        """Wait until every earlier turn has been given back.

        Raises:
            TurnsAborted: the line was aborted; this turn will never come.
        """

    def release(self) -> None:
        """Give the turn back: the next one may go. Giving it back twice is harmless."""


class _Line(ABC):
    """Where turns wait; a line serves one number at a time, from 0 up."""

    def turn(self, number: int) -> NumberedTurn:
        """Return turn ``number`` (each number once, from 0 up)."""
        return NumberedTurn(self, number)

    @abstractmethod
    async def wait_for(self, number: int) -> None:
        """Wait until turn ``number`` is served; raise ``TurnsAborted`` if it never will be."""

    @abstractmethod
    def serve(self, number: int) -> None:
        """Serve turn ``number`` next, waking it if it waits (unless the line is aborted)."""

    @abstractmethod
    def abort(self) -> None:
        """Serve no more turns: wake every waiting one to raise ``TurnsAborted``."""


class NumberedTurn:
    """Turn ``number`` of a line; ``close`` passes it on even if it was never taken."""

    def __init__(self, line: _Line, number: int) -> None:
        self._line = line
        self._number = number
        self._released = False

    async def acquire(self) -> None:
        """Wait until every earlier turn has been given back."""
        await self._line.wait_for(self._number)

    def release(self) -> None:
        """Let the next turn go."""
        if not self._released:
            self._released = True
            self._line.serve(self._number + 1)

    async def claim(self, conn: psycopg.AsyncConnection[Any]) -> None:
        """Fix the open transaction's place in the global order in this turn's order.

        Takes the turn, claims the transaction's id and gives the turn back. A batch
        whose turn is given back already (a later transaction of it) takes no place.
        """
        if self._released:
            return
        await self.acquire()
        await claim_position(conn)
        self.release()

    async def close(self) -> None:
        """Give the turn back, waiting for it first if it was never taken.

        Call it when the batch is done, whatever became of it (refused before the
        recorder saw it, or an error): the turns after it would wait for ever. On an
        aborted line there is nothing to give back.
        """
        if not self._released:
            try:
                await self.acquire()
            except TurnsAborted:
                return
            self.release()


class LocalLine(_Line):
    """A line for batches that are coroutines of one event loop."""

    def __init__(self) -> None:
        self._serving = 0
        self._aborted = False
        self._waiting: dict[int, asyncio.Future[None]] = {}

    async def wait_for(self, number: int) -> None:
        """Wait until turn ``number`` is served; raise ``TurnsAborted`` if it never will be."""
        if self._serving != number and not self._aborted:
            waiter = asyncio.get_running_loop().create_future()
            self._waiting[number] = waiter
            await waiter
        if self._aborted:
            raise TurnsAborted

    def serve(self, number: int) -> None:
        """Serve turn ``number`` next, waking it if it waits."""
        self._serving = number
        waiter = self._waiting.pop(number, None)
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def abort(self) -> None:
        """Serve no more turns: wake every waiting one to raise ``TurnsAborted``."""
        self._aborted = True
        for waiter in self._waiting.values():
            if not waiter.done():
                waiter.set_result(None)
        self._waiting.clear()


class SharedLine(_Line):
    """A line for batches run by worker processes: a shared counter and condition.

    Build it with the workers' multiprocessing context before they start, and pass it
    to them at start-up (as an initializer argument). A turn's ``acquire`` blocks its
    process until the turn comes: a worker runs one batch at a time, so there is
    nothing else its event loop could run meanwhile.
    """

    def __init__(self, context: Any) -> None:
        self._serving = context.Value("q", 0, lock=False)
        self._changed = context.Condition()

    async def wait_for(self, number: int) -> None:
        """Block until turn ``number`` is served; raise ``TurnsAborted`` if it never will be."""
        with self._changed:
            self._changed.wait_for(lambda: self._serving.value in (number, _ABORTED))
            if self._serving.value == _ABORTED:
                raise TurnsAborted

    def serve(self, number: int) -> None:
        """Serve turn ``number`` next and wake the waiting processes (unless aborted)."""
        with self._changed:
            if self._serving.value != _ABORTED:
                self._serving.value = number
                self._changed.notify_all()

    def abort(self) -> None:
        """Serve no more turns: wake every waiting one to raise ``TurnsAborted``."""
        with self._changed:
            self._serving.value = _ABORTED
            self._changed.notify_all()


_ABORTED = -1
"""What ``SharedLine`` serves once aborted (turns are numbered from 0)."""


__all__ = ["LocalLine", "NumberedTurn", "SharedLine", "Turn", "TurnsAborted"]
