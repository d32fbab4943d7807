"""Running an import: read every input, hand its matches to the batches in flight, count.

The entry point ``run_import``, how many workers an input is worth (``default_jobs``),
what the import did (``Summary``) and what it shows as it goes (``ImportView``,
implemented by cli/importer.py): progress, and each bad match as
``file:line: CODE reason`` while the import goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import time
from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from service.imports.garbage import collect_less
from service.imports.importer import Importer, Outcome
from service.imports.parallel import InFlight, Overlapped, Workers
from service.imports.reading import Source, iter_paths, open_input, read_chunks, read_logs
from service.wiring import open_pool, recorder_for


@dataclass(slots=True)
class Summary:
    """What an import did, counted by match."""

    imported: int = 0
    present: int = 0
    refused: int = 0
    events: int = 0
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)
    interrupted: bool = False
    competitions: dict[str, None] = field(default_factory=dict)
    """The ids of the competitions the matches imported or present count in, as first met."""

    @property
    def ok(self) -> bool:
        """Whether everything was imported or already present."""
        return self.refused == 0 and not self.problems and not self.interrupted

    def text(self, dry_run: bool) -> str:
        """Return the one-line summary printed at the end."""
        verb = "valid" if dry_run else "imported"
        rate = self.events / self.seconds if self.seconds else 0.0
        matches = "match" if self.imported == 1 else "matches"
        events = "event" if self.events == 1 else "events"
        counts = (
            f"{self.imported} {matches} {verb} ({self.events} {events}), "
            f"{self.present} already recorded, {self.refused} refused "
            f"in {self.seconds:.1f} s ({rate:,.0f} events/s)"
        )
        if not self.interrupted:
            return counts
        return (
            f"interrupted: {counts} before it; the matches in flight were recorded whole "
            "or not at all, and importing the same input again skips what is recorded"
        )


class ImportView(Protocol):
    """What an import shows as it goes: its progress through the inputs, and problems."""

    def showing(self) -> AbstractContextManager[object]:
        """Show the progress while the inputs are read (entered once workers run)."""
        ...

    def reading(self, name: str, size: int | None) -> None:
        """An input starts: ``name`` as shown, ``size`` in bytes when known."""
        ...

    def read(self, position: int) -> None:
        """The input being read is consumed up to ``position`` bytes."""
        ...

    def unreadable(self, text: str) -> None:
        """Show an input that could not be opened (``file:0: UNREADABLE reason``)."""
        ...

    def refused(self, text: str) -> None:
        """Show why a match was refused (``file:line: CODE reason``)."""
        ...


def run_import(
    url: str, paths: Sequence[str], *, dry_run: bool, view: ImportView, jobs: int = 1
) -> Summary:
    """Import every match of ``paths`` into ``url``'s database (migrated) and return what
    happened; ``view`` shows problems.

    With ``jobs`` above 1, batches of matches are checked and recorded by that many
    worker processes (each with its own recorder), while this process reads the
    input; the batches still land in input order (their turns: store/turns.py),
    and results are reported in it. The workers start before the event loop does
    (see ``Workers``), so call this outside one.
    """
    summary = Summary()
    workers = Workers(url, dry_run, jobs) if jobs > 1 else None
    try:
        asyncio.run(_run_import(paths, dry_run, view, url, workers, summary))
    except KeyboardInterrupt:
        summary.interrupted = True
    finally:
        if workers is not None:
            workers.shutdown()
    return summary


async def _run_import(
    paths: Sequence[str],
    dry_run: bool,
    view: ImportView,
    url: str,
    workers: Workers | None,
    summary: Summary,
) -> None:
    thresholds = collect_less()
    try:
        await _import_all(paths, dry_run, view, workers, url, summary)
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()


async def _import_all(
    paths: Sequence[str],
    dry_run: bool,
    view: ImportView,
    workers: Workers | None,
    url: str,
    summary: Summary,
) -> None:
    async with open_pool(url) as pool:
        started = time.perf_counter()
        importer = Importer(recorder_for(pool), dry_run=dry_run)
        in_flight: InFlight = Overlapped(importer) if workers is None else workers
        try:
            with view.showing():
                await _import_paths(paths, in_flight, view, summary)
        except BaseException:
            # An error or an interrupt: no batch still to start will give its turn back.
            await in_flight.abort()
            raise
        finally:
            summary.seconds = time.perf_counter() - started


async def _import_paths(
    paths: Sequence[str],
    in_flight: InFlight,
    view: ImportView,
    summary: Summary,
) -> None:
    """Read every input, hand its matches to ``in_flight``, count what became of them."""
    for name in iter_paths(paths):
        shown = "<stdin>" if name == "-" else name
        try:
            raw = open_input(name)
        except OSError as e:
            summary.problems.append(f"{shown}:0: UNREADABLE {e.strerror or e}")
            view.unreadable(summary.problems[-1])
            continue
        try:
            size = Path(name).stat().st_size if name != "-" else None
            view.reading(shown, size)
            source = Source(shown, raw)
            items = read_chunks(source) if in_flight.reads_chunks else read_logs(source)
            for item in items:
                for outcome, where in await in_flight.submit(item, shown):
                    _count(summary, outcome, where, view)
                view.read(source.position())
        finally:
            if name != "-":
                raw.close()
    for outcome, where in await in_flight.close():
        _count(summary, outcome, where, view)


AUTO_JOBS_BYTES = 4 * 1024 * 1024
"""Input size (about 300 matches) from which an import uses a worker per core unless told.

Forking the workers and their connections costs some 50 ms, a small share of an
import this long; below it, in-process is as fast."""

MAX_AUTO_JOBS = 8
"""Workers an import starts unless told: each holds a connection and some 50 MB."""


def default_jobs(paths: Sequence[str]) -> int:
    """Return how many workers to use for ``paths`` when ``--jobs`` is not given.

    One per core the process may run on (at most ``MAX_AUTO_JOBS``) when the files
    add up to ``AUTO_JOBS_BYTES`` or more; 1 (no workers) for smaller inputs and
    stdin, whose length is unknown.
    """
    total = 0
    for name in iter_paths(paths):
        if name != "-":
            with contextlib.suppress(OSError):
                total += Path(name).stat().st_size
    if total < AUTO_JOBS_BYTES:
        return 1
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, min(cores or 1, MAX_AUTO_JOBS))


def _count(summary: Summary, outcome: Outcome, shown: str, view: ImportView) -> None:
    if outcome.competition_id is not None:
        summary.competitions[outcome.competition_id] = None
    if outcome.status == "imported":
        summary.imported += 1
        summary.events += outcome.events
    elif outcome.status == "present":
        summary.present += 1
    else:
        summary.refused += 1
        for error in outcome.errors:
            view.refused(error.text(shown))
