"""Batches of matches in flight: overlapped in this process, or in worker processes.

Matches are recorded in batches (``BATCH_MATCHES``, one transaction each), because
every SQL statement costs a fixed slice of Python time. Batches are numbered in
input order and take turns (store/turns.py), so they land in input order however
many are in flight; only those batches are held in memory. Worker processes start
here, each with its own recorder, and end with the process that started them.
"""

from __future__ import annotations

import asyncio
import itertools
import multiprocessing
import os
import signal
import sys
import threading
import time
from abc import ABC, abstractmethod
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from psycopg_pool import AsyncConnectionPool

from domain.logs.base import MatchLog
from service.imports.garbage import collect_less
from service.imports.importer import Importer, Outcome
from service.imports.reading import Chunk
from service.wiring import recorder_for
from store.turns import LocalLine, NumberedTurn, SharedLine

BATCH_MATCHES = 32
"""Matches recorded per transaction, at most: each statement costs a fixed ~0.2 ms of
Python, so a batch writes its matches' events, rows and players with a few."""

BATCH_EVENTS = 4096
"""Events per transaction, at most (however few matches that makes)."""


_Item = MatchLog | Chunk
"""What a batch is made of: read matches, or (with ``--jobs``) chunks a worker reads."""


def _size(item: _Item) -> int:
    """Return about how many events an item brings (a chunk: its lines)."""
    if isinstance(item, MatchLog):
        return len(item.events) + len(item.moves)
    return len(item.lines)


class InFlight(ABC):
    """Batches of matches being imported concurrently, reported in input order.

    ``submit`` gathers items into a batch of up to ``BATCH_MATCHES`` items or
    ``BATCH_EVENTS`` events; ``start`` begins a batch's import, numbered from 0 in
    input order (its turn: store/turns.py), so batches are recorded in input order
    however many are in flight; at most ``limit`` batches wait besides the newest.
    Memory stays flat: only those batches are held.
    """

    reads_chunks = False
    """Whether it takes a JSON Lines input as raw chunks (``read_chunks``), not read matches."""

    def __init__(self, limit: int) -> None:
        self._limit = limit
        self._numbers = itertools.count()
        self._pending: deque[tuple[asyncio.Future[list[list[Outcome]]], list[str]]] = deque()
        self._batch: list[_Item] = []
        self._names: list[str] = []
        self._events = 0

    @abstractmethod
    def start(self, items: list[_Item], number: int) -> asyncio.Future[list[list[Outcome]]]:
        """Begin importing batch ``number``; its future gives each item's outcomes."""

    @abstractmethod
    async def abort(self) -> None:
        """Give up: no batch waits for its turn any longer; those appending end whole."""

    async def submit(self, item: _Item, shown: str) -> list[tuple[Outcome, str]]:
        """Add one item; return the outcomes finished meanwhile, in input order."""
        self._batch.append(item)
        self._names.append(shown)
        self._events += _size(item)
        if len(self._batch) >= BATCH_MATCHES or self._events >= BATCH_EVENTS:
            self._flush()
        done: list[tuple[Outcome, str]] = []
        while len(self._pending) > self._limit or (self._pending and self._pending[0][0].done()):
            done.extend(await self._finish(*self._pending.popleft()))
        return done

    async def close(self) -> list[tuple[Outcome, str]]:
        """Import what is gathered, wait for every batch; return the outcomes in order."""
        self._flush()
        done: list[tuple[Outcome, str]] = []
        for future, names in self._pending:
            done.extend(await self._finish(future, names))
        self._pending.clear()
        return done

    @staticmethod
    async def _finish(
        future: asyncio.Future[list[list[Outcome]]], names: list[str]
    ) -> list[tuple[Outcome, str]]:
        results = await future
        return [(o, name) for outcomes, name in zip(results, names, strict=True) for o in outcomes]

    def _flush(self) -> None:
        if self._batch:
            self._pending.append((self.start(self._batch, next(self._numbers)), self._names))
            self._batch, self._names, self._events = [], [], 0


class Overlapped(InFlight):
    """Two batches in flight in this process: one is checked while the other is written.

    The engine's work is plain Python and the database's is another process, so
    while one batch waits on its transaction the next one is decided.
    """

    def __init__(self, importer: Importer) -> None:
        super().__init__(limit=1)
        self._importer = importer
        self._line = LocalLine()

    def start(self, items: list[_Item], number: int) -> asyncio.Future[list[list[Outcome]]]:
        return asyncio.ensure_future(_import_items(self._importer, items, self._line.turn(number)))

    async def abort(self) -> None:
        # Let them end rather than cancel them: a query cancelled mid-append costs
        # its connection (and a warning from psycopg), and the batches end soon.
        self._line.abort()
        await asyncio.gather(*(future for future, _ in self._pending), return_exceptions=True)


def worker_context() -> Any:
    """Return how worker processes start.

    Where this process runs no other thread, they fork from it: it has imported
    everything they need, and (see ``run_import``) it holds no connection yet. A fork
    of a process with threads can inherit a lock some thread holds, so otherwise
    (under a test runner, say) they fork from a fork server, a fresh single-threaded
    process that imports the importer once; where there is none (Windows), they spawn.
    """
    if sys.platform == "linux" and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload([__name__])
        return context
    return multiprocessing.get_context("spawn")


class Workers(InFlight):
    """Worker processes that import batches; at most two per worker are in flight.

    Build it before the event loop runs: the processes start here. The workers
    ignore Ctrl-C: this process is told of it too, and aborts the batches in flight
    (a worker finishes the batch it is writing, whole) before it shuts them down.
    """

    reads_chunks = True

    def __init__(self, url: str, dry_run: bool, jobs: int) -> None:
        super().__init__(limit=2 * jobs)
        context = worker_context()
        self._line = SharedLine(context)
        self._executor = ProcessPoolExecutor(
            jobs,
            mp_context=context,
            initializer=_start_worker,
            initargs=(url, dry_run, self._line),
        )
        # A first task makes the pool start its processes; under fork, all of them here
        # and now, before the pool's own thread starts. Forking costs the workers about
        # a second less than the fork server's fresh import did.
        self._executor.submit(int)

    def start(self, items: list[_Item], number: int) -> asyncio.Future[list[list[Outcome]]]:
        # The pool hands batches to idle workers in this order, so each worker waits
        # only for turns already taken by a running batch.
        loop = asyncio.get_running_loop()
        return loop.run_in_executor(self._executor, _import_in_worker, items, number)

    async def abort(self) -> None:
        self._line.abort()

    def shutdown(self) -> None:
        """Stop the worker processes once the batches they run are done.

        Batches no worker has started are dropped: after a clean finish there are
        none, and after an abort they would only meet an aborted line.
        """
        self._executor.shutdown(cancel_futures=True)


_worker: tuple[asyncio.AbstractEventLoop, Importer, SharedLine] | None = None


def _start_worker(url: str, dry_run: bool, line: SharedLine) -> None:
    global _worker
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the import process handles Ctrl-C
    watch = threading.Thread(target=_exit_with_parent, args=(os.getppid(),), daemon=True)
    watch.start()

    async def open_importer() -> Importer:
        pool: AsyncConnectionPool[Any] = AsyncConnectionPool(
            url, min_size=1, max_size=1, open=False
        )
        await pool.open(wait=True, timeout=30)
        return Importer(recorder_for(pool), dry_run=dry_run)

    loop = asyncio.new_event_loop()
    _worker = (loop, loop.run_until_complete(open_importer()), line)
    collect_less()  # a worker lives for one import


def _exit_with_parent(parent: int) -> None:
    """End this worker as soon as the process that started it is gone.

    A killed import (kill -9) cannot stop its workers, and an idle worker would wait
    for work for ever, holding its connection. Exiting mid-batch is safe: the
    server rolls the open transaction back, so only whole matches stay recorded.
    """
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


def _import_in_worker(items: list[_Item], number: int) -> list[list[Outcome]]:
    assert _worker is not None
    loop, importer, line = _worker
    return loop.run_until_complete(_import_items(importer, items, line.turn(number)))


async def _import_items(
    importer: Importer, items: list[_Item], turn: NumberedTurn
) -> list[list[Outcome]]:
    """Import a batch of read matches and chunks in its turn; return each item's outcomes."""
    try:
        read = [[item] if isinstance(item, MatchLog) else item.logs() for item in items]
        outcomes = iter(await importer.import_batch([log for logs in read for log in logs], turn))
    finally:
        await turn.close()  # whatever happened: the batches after this one wait for it
    return [[next(outcomes) for _ in logs] for logs in read]
