"""Turns: batches that append one after another in the order they were numbered.

An event's global position comes from its transaction's id, which PostgreSQL assigns
at the transaction's first write (docs/event-store.md). So batches written
concurrently (an import keeps two in flight, or one per worker process) land in
input order only if each one's append waits for the append of the batch before it.
A batch holds a ``Turn`` (numbered 0, 1, 2, ... by whoever hands out the batches)
and the recorder takes it just before appending and gives it back just after.

``LocalLine`` serves turns to coroutines of one event loop; ``SharedLine`` to worker
processes (it is built before they start, and handed to them).
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol


class Turn(Protocol):
    """A batch's place in a line of appends."""

    async def acquire(self) -> None:
        """Wait until every earlier turn has been given back."""

    def release(self) -> None:
        """Give the turn back: the next one may append. Giving it back twice is harmless."""


class _Line(Protocol):
    """Where turns wait: ``serving`` is the number of the turn that may append."""

    async def wait_for(self, number: int) -> None: ...

    def serve(self, number: int) -> None: ...


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
        """Let the next turn append."""
        if not self._released:
            self._released = True
            self._line.serve(self._number + 1)

    async def close(self) -> None:
        """Give the turn back, waiting for it first if it was never taken.

        Call it when the batch is done, whatever became of it (refused before the
        recorder saw it, or an error): the turns after it would wait for ever.
        """
        if not self._released:
            await self.acquire()
            self.release()


class LocalLine:
    """A line for batches that are coroutines of one event loop."""

    def __init__(self) -> None:
        self._serving = 0
        self._waiting: dict[int, asyncio.Future[None]] = {}

    def turn(self, number: int) -> NumberedTurn:
        """Return turn ``number`` (each number once, from 0 up)."""
        return NumberedTurn(self, number)

    async def wait_for(self, number: int) -> None:
        """Wait until turn ``number`` is served."""
        if self._serving != number:
            waiter = asyncio.get_running_loop().create_future()
            self._waiting[number] = waiter
            await waiter

    def serve(self, number: int) -> None:
        """Serve turn ``number`` next, waking it if it waits."""
        self._serving = number
        waiter = self._waiting.pop(number, None)
        if waiter is not None and not waiter.done():
            waiter.set_result(None)


class SharedLine:
    """A line for batches run by worker processes: a shared counter and condition.

    Build it with the workers' multiprocessing context before they start, and pass it
    to them at start-up (as an initializer argument). A turn's ``acquire`` blocks its
    process until the turn comes: a worker runs one batch at a time, so there is
    nothing else its event loop could run meanwhile.
    """

    def __init__(self, context: Any) -> None:
        self._serving = context.Value("q", 0, lock=False)
        self._changed = context.Condition()

    def turn(self, number: int) -> NumberedTurn:
        """Return turn ``number`` (each number once, from 0 up)."""
        return NumberedTurn(self, number)

    async def wait_for(self, number: int) -> None:
        """Block until turn ``number`` is served."""
        with self._changed:
            self._changed.wait_for(lambda: self._serving.value == number)

    def serve(self, number: int) -> None:
        """Serve turn ``number`` next and wake the waiting processes."""
        with self._changed:
            self._serving.value = number
            self._changed.notify_all()


__all__ = ["LocalLine", "NumberedTurn", "SharedLine", "Turn"]
