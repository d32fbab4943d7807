"""Group commit: concurrent writes to different streams share one transaction.

Each write still gets its own answer: the recorder's ``record_batch`` decides every
request against its own stream and version and reports one outcome per request, a
refused one leaving the others be. The batch's one COMMIT is one WAL flush for all
of them, with ``synchronous_commit`` as configured (on: an answered write is
durable).

A batch forms only from writes already waiting: a write that finds no flush
running starts one at once (no timer), and the writes that arrive while it runs
make up the next. Two writes to one stream never share a batch: the later waits
for the next, so it is decided on the earlier one's events.
"""

from __future__ import annotations

import asyncio
from collections import Counter, deque
from collections.abc import Awaitable, Callable, Sequence
from typing import Generic, Protocol, TypeVar


class _Write(Protocol):
    @property
    def stream(self) -> str: ...


Req = TypeVar("Req", bound=_Write)
Outcome = TypeVar("Outcome")


class GroupCommit(Generic[Req, Outcome]):
    """Queue writes while a batch is being recorded, and record them together next.

    ``record_batch`` (the recorder's) records a batch in one transaction and returns
    one outcome per request, refusals included. ``sizes`` counts batches by size.
    """

    def __init__(
        self,
        record_batch: Callable[[Sequence[Req]], Awaitable[list[Outcome]]],
        *,
        max_batch: int = 64,
    ) -> None:
        self._record_batch = record_batch
        self._max_batch = max_batch
        self._waiting: deque[tuple[Req, asyncio.Future[Outcome]]] = deque()
        self._flushing: asyncio.Task[None] | None = None
        self.sizes: Counter[int] = Counter()

    async def record(self, request: Req) -> Outcome:
        """Record ``request`` in the next batch; return its outcome.

        Raises:
            Exception: what recording the request alone raised (not a refusal).
        """
        future: asyncio.Future[Outcome] = asyncio.get_running_loop().create_future()
        self._waiting.append((request, future))
        if self._flushing is None:
            self._flushing = asyncio.create_task(self._flush())
        return await future

    async def _flush(self) -> None:
        try:
            while self._waiting:
                batch = self._take()
                if batch:
                    await self._record(batch)
        finally:
            self._flushing = None

    def _take(self) -> list[tuple[Req, asyncio.Future[Outcome]]]:
        """Take the waiting writes of distinct streams, oldest first, in stream order."""
        batch: list[tuple[Req, asyncio.Future[Outcome]]] = []
        streams: set[str] = set()
        later: deque[tuple[Req, asyncio.Future[Outcome]]] = deque()
        while self._waiting:
            request, future = item = self._waiting.popleft()
            if future.done():  # its caller gave up waiting
                continue
            if request.stream in streams or len(batch) >= self._max_batch:
                later.append(item)
            else:
                streams.add(request.stream)
                batch.append(item)
        self._waiting = later
        # Streams are locked in a batch's order: one order for every batch (and every
        # process) means two batches that share streams queue, never deadlock.
        batch.sort(key=lambda item: item[0].stream)
        return batch

    async def _record(self, batch: list[tuple[Req, asyncio.Future[Outcome]]]) -> None:
        self.sizes[len(batch)] += 1
        try:
            outcomes = await self._record_batch([request for request, _ in batch])
        except Exception as error:
            if len(batch) == 1:
                _settle(batch[0][1], error)
                return
            # Not a refusal (those are outcomes): something about one request, or
            # the connection. Alone, each fails or succeeds on its own account.
            for item in batch:
                await self._record([item])
            return
        except BaseException as error:
            for _, future in batch:
                _settle(future, error)
            raise
        for (_, future), outcome in zip(batch, outcomes, strict=True):
            if not future.done():
                future.set_result(outcome)


def _settle(future: asyncio.Future[Outcome], error: BaseException) -> None:
    """Fail a write's wait, unless its caller has given up waiting.

    >>> loop = asyncio.new_event_loop(); future = loop.create_future(); _ = future.cancel()
    >>> _settle(future, ValueError()); loop.close()
    """
    if not future.done():
        future.set_exception(error)


__all__ = ["GroupCommit"]
