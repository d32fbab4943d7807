"""Importing game logs: read them, check each match, record it through the recorder.

Files, folders and ``-`` (stdin), either format, gzip or not (recognised by content,
not by name). Each match is checked by the same engine and recorder as the API and
recorded whole or not at all, in input order; a bad match is reported as
``file:line: CODE reason`` and the import goes on. Matches are recorded in batches
(``BATCH_MATCHES``, one transaction each; a batch the database refuses is recorded
match by match), because every SQL statement costs a fixed slice of Python time.
Input is streamed: only the batches in flight are held in memory. What the import
shows as it goes (progress, problems) goes to an ``ImportView`` (cli/importer.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import gzip
import itertools
import json
import multiprocessing
import os
import signal
import sys
import threading
import time
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any, Protocol
from uuid import UUID

import msgspec
import psycopg
from psycopg_pool import AsyncConnectionPool

from domain.errors import ConflictError, DomainError
from domain.events import Event
from domain.logs import jsonl, text
from domain.logs.base import Lines, LogError, LogHeader, MatchBuilder, MatchLog, is_text_line
from domain.logs.commands import (
    Step,
    first_difference,
    replay,
    same_data,
    steps_from_events,
    steps_from_moves,
    text_event_id,
    text_match_id,
    text_player_id,
)
from domain.records import builder
from domain.stream import MatchState
from service.exporter import is_uuid
from service.wiring import database_url, open_pool, recorder_for
from store import accounts
from store.events import EventIdConflictError, VersionConflictError
from store.reads import stream_contents
from store.recorder import EventIdentity, Recorded, Recorder, Request, match_stream
from store.turns import LocalLine, NumberedTurn, SharedLine

_identity = builder(EventIdentity)
"""A canonical import builds one per event: skip the frozen ``__init__`` (domain/records.py)."""

_IMPORT_METADATA = {"source": "import"}
"""The metadata of events an import records (a canonical log brings its own)."""

LOG_SUFFIXES = (".jsonl", ".jsonl.gz", ".mlog", ".mlog.gz", ".txt", ".txt.gz", ".log", ".log.gz")
"""What a folder's files must end with to be imported."""


class LogRefused(DomainError):
    """A log's events differ from what the engine gives; carries the line."""

    default_code = "EVENT_MISMATCH"

    def __init__(self, error: LogError) -> None:
        super().__init__(error.message, code=error.code, details={"line": error.line})
        self.error = error


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

    @property
    def ok(self) -> bool:
        """Whether everything was imported or already present."""
        return self.refused == 0 and not self.problems and not self.interrupted

    def text(self, dry_run: bool) -> str:
        """Return the one-line summary printed at the end."""
        verb = "valid" if dry_run else "imported"
        rate = self.events / self.seconds if self.seconds else 0.0
        counts = (
            f"{self.imported} matches {verb} ({self.events} events), "
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


class _Source:
    """Decoded, numbered lines of one input, counting the bytes read for the progress bar."""

    def __init__(self, name: str, raw: IO[bytes]) -> None:
        self.name = name
        self._raw = raw
        head = raw.peek(2)[:2] if hasattr(raw, "peek") else b""
        self._gz = gzip.GzipFile(fileobj=raw, mode="rb") if head == b"\x1f\x8b" else None
        self._stream: IO[bytes] = raw if self._gz is None else self._gz  # type: ignore[assignment]
        self.failure: str | None = None

    def position(self) -> int:
        """Return how many bytes of the (possibly compressed) input were consumed."""
        try:
            return self._raw.tell()
        except (OSError, ValueError):
            return 0

    def lines(self) -> Iterator[str]:
        """Yield decoded lines; undecodable bytes survive as surrogates, reported by readers."""
        try:
            for raw in self._stream:
                yield raw.decode("utf-8", "surrogateescape")
        except (EOFError, OSError, gzip.BadGzipFile) as e:
            self.failure = f"the compressed input is cut short or damaged ({e})"


def iter_paths(paths: Sequence[str]) -> Iterator[str]:
    """Yield the inputs named: files as given, folders' log files in name order, ``-``."""
    for given in paths:
        path = Path(given)
        if given != "-" and path.is_dir():
            for child in sorted(path.rglob("*")):
                if child.is_file() and child.name.endswith(LOG_SUFFIXES):
                    yield str(child)
        else:
            yield given


_DECODE = msgspec.json.Decoder().decode


def loads_line(line: str) -> Any:
    """Decode one JSON line exactly as ``json.loads`` does, about three times faster.

    msgspec gives the same values (big integers included); where it refuses (NaN, a
    lone surrogate, or bad JSON) the json module decides, and explains a bad line.
    """
    try:
        return _DECODE(line)
    except (msgspec.DecodeError, UnicodeEncodeError):
        return json.loads(line)


_read_jsonl = functools.partial(jsonl.read_match, loads=loads_line)


def _reader(first: str) -> Any:
    if first.lstrip().startswith("{"):
        return _read_jsonl
    return text.read_match


def _opening(source: _Source, lines: Lines) -> MatchLog | Any:
    """Return the reader a source's format needs, or the match that says why there is none."""
    first = lines.next_content()
    if first is None:
        if source.failure is None:
            return MatchLog(errors=[LogError(1, "EMPTY_LOG", "the input holds no match")])
        return MatchLog(errors=[LogError(1, "TRUNCATED", source.failure)])
    stripped = first[1].lstrip()
    if not stripped.startswith(("{", "[")):
        code = "UNKNOWN_FORMAT" if is_text_line(first[1]) else "NOT_TEXT"
        message = (
            "binary data, not a game log"
            if code == "NOT_TEXT"
            else "a log starts with a JSON header line '{...' or a text tag '[...'"
        )
        return MatchLog(errors=[LogError(first[0], code, message)])
    lines.push_back(first)
    return _reader(first[1])


def read_logs(source: _Source) -> Iterator[MatchLog]:
    """Yield each match of a source, errors attached; a file-level problem is a match too."""
    lines = Lines(source.lines())
    read = _opening(source, lines)
    if isinstance(read, MatchLog):
        yield read
        return
    yield from _read_matches(source, lines, read)


def _read_matches(source: _Source, lines: Lines, read: Any) -> Iterator[MatchLog]:
    while True:
        match = read(lines, MatchBuilder())
        if match is None:
            return
        if source.failure is not None:
            match.errors.append(LogError(lines.number, "TRUNCATED", source.failure))
            source.failure = None
        yield match


@dataclass(frozen=True, slots=True)
class _Chunk:
    """The raw lines of one or more whole matches of a JSON Lines log, for a worker to read.

    ``start`` is the number of the line before the first; ``more`` says a header line
    follows the chunk in the file (a match cut short then says the next match
    starts, not that the file ends); ``failure`` is the damage the input ended
    with, which the last match read reports (as ``read_logs`` does).
    """

    start: int
    lines: list[str]
    more: bool
    failure: str | None = None

    def logs(self) -> list[MatchLog]:
        """Read the chunk's matches, as ``read_logs`` reads them from the whole file."""
        # The reader only asks of the line after a match whether it is a header.
        lines = Lines(
            [*self.lines, '{"matchlog": null}'] if self.more else self.lines, start=self.start
        )
        end = self.start + len(self.lines)
        matches = []
        while (item := lines.next_content()) is not None and item[0] <= end:
            lines.push_back(item)
            match = _read_jsonl(lines, MatchBuilder())
            assert match is not None, "a content line starts a match"
            matches.append(match)
        if self.failure is not None and matches:
            matches[-1].errors.append(LogError(lines.number, "TRUNCATED", self.failure))
        return matches


def read_chunks(source: _Source) -> Iterator[MatchLog | _Chunk]:
    """Yield a source's JSON Lines matches as raw chunks cut at their header lines.

    Reading a JSON line costs more than handing its text to another process, so
    with ``--jobs`` the workers read: this process only finds where each match
    starts. Text logs and file-level problems come as read matches.
    """
    lines = Lines(source.lines())
    read = _opening(source, lines)
    if isinstance(read, MatchLog):
        yield read
        return
    if read is not _read_jsonl:
        yield from _read_matches(source, lines, read)
        return
    pending: list[str] = []
    start = 0
    while (item := lines.next()) is not None:
        number, line = item
        if pending and _starts_match(line):
            yield _Chunk(start, pending, more=True)
            pending = []
        if not pending:
            start = number - 1
        pending.append(line)
    yield _Chunk(start, pending, more=False, failure=source.failure)
    source.failure = None


def _starts_match(line: str) -> bool:
    """Whether ``jsonl.read_match`` starts a match at ``line`` (only a header line does).

    The substring test spares parsing the other lines. A header whose key is written
    with escapes is not seen here; then it stays in the chunk before, where the
    worker's reader starts its match all the same.
    """
    if '"matchlog"' not in line:
        return False
    try:
        return jsonl.is_header_line(line, loads=loads_line)
    except RecursionError:
        return False


@dataclass(frozen=True, slots=True)
class Outcome:
    """What became of one match: ``imported``, ``present`` or ``refused``."""

    status: str
    events: int = 0
    errors: tuple[LogError, ...] = ()


@dataclass(frozen=True, slots=True)
class _Pending:
    """A checked match waiting for the recorder: its request and what settling it needs.

    ``events`` (event id or ``None``, type, data) are what its stream should hold,
    compared with what it does hold when the stream turns out to exist; ``with_ids``
    says whether the ids count (a text log's are derived, a canonical log's given).
    """

    request: Request
    steps: Sequence[Step]
    header: LogHeader
    new_players: list[tuple[str, str]]
    events: Sequence[tuple[str | None, str, Any]]
    with_ids: bool


class Importer:
    """Check matches and record them a batch per transaction (or only check them)."""

    def __init__(self, recorder: Recorder, *, dry_run: bool = False) -> None:
        self._recorder = recorder
        self._pool: AsyncConnectionPool[Any] = recorder.pool
        self._dry_run = dry_run
        self._players: set[str] = set()
        self._competitions: set[str] = set()

    async def import_batch(
        self, logs: Sequence[MatchLog], turn: NumberedTurn | None = None
    ) -> list[Outcome]:
        """Check read matches and record the good ones in one transaction, each whole.

        One outcome per match, in order. A refused match leaves the others be: the
        recorder records each on its own when the database refuses the batch. The
        batch takes its place in ``turn`` (store/turns.py), so batches in flight are
        recorded in the order of their turns; the caller closes the turn when the
        batch is done, whatever became of it.
        """
        prepared = [await self._prepare(log) for log in logs]
        pending = [p for p in prepared if isinstance(p, _Pending)]
        if not pending:
            return [p for p in prepared if isinstance(p, Outcome)]
        new_players = {p.request.stream: p.new_players for p in pending}

        async def create_players(
            conn: psycopg.AsyncConnection[Any], done: Sequence[Recorded]
        ) -> None:
            # In the matches' own transaction: a refused match leaves no players behind.
            names = {pid: name for r in done for name, pid in new_players[r.stream]}
            if names:
                await accounts.ensure_players(conn, [(UUID(pid), n) for pid, n in names.items()])

        results = iter(
            await self._recorder.record_batch(
                [p.request for p in pending],
                after_append=create_players,
                on_transaction_start=None if turn is None else turn.claim,
            )
        )
        return [
            p if isinstance(p, Outcome) else await self._settle(p, next(results)) for p in prepared
        ]

    async def _prepare(self, log: MatchLog) -> Outcome | _Pending:
        """Check a match as far as it can be without the database's word on it."""
        if log.errors:
            return Outcome("refused", errors=tuple(log.errors))
        if log.header is None:
            return Outcome(
                "refused", errors=(LogError(log.first_line, "HEADER_MISSING", "no header"),)
            )
        try:
            if log.text:
                return await self._text(log, log.header)
            return await self._canonical(log, log.header)
        except LogRefused as e:
            return Outcome("refused", errors=(e.error,))

    async def _settle(self, pending: _Pending, result: Recorded | DomainError) -> Outcome:
        """Return what became of a match, given what the recorder said."""
        header, stream = pending.header, pending.request.stream
        if isinstance(result, LogRefused):
            return Outcome("refused", errors=(result.error,))
        if isinstance(result, VersionConflictError):
            return await self._compare(pending) or _refused(
                header.line, "VERSION_CONFLICT", f"{stream!r} changed while it was imported"
            )
        if isinstance(result, EventIdConflictError):
            # The recorder appends a new stream without reading it first, so a stream
            # already holding some of these ids (with other events after or among
            # them) surfaces here: compare it like any existing stream. Ids recorded
            # in another stream (this one is empty) are this log's own fault.
            return await self._compare(pending) or _refused(
                header.line, result.code, result.message
            )
        if isinstance(result, DomainError):
            # Find the line: the recorder says what was refused, a replay says where.
            located = replay(pending.steps).error
            if located is not None and located.code == result.code:
                return Outcome("refused", errors=(located,))
            return _refused(header.line, result.code, result.message)
        if result.already_recorded:
            return Outcome("present", len(result.events))
        self._players.update(pid for _, pid in pending.new_players)
        return Outcome("imported", len(result.events))

    async def _canonical(self, log: MatchLog, header: LogHeader) -> Outcome | _Pending:
        steps, errors = steps_from_events(log)
        if errors:
            return Outcome("refused", errors=tuple(errors))
        assert header.match_id is not None
        stream = match_stream(header.game, header.match_id)
        logged = [(e.event_id, e.type, e.data) for e in log.events]

        def check(events: Sequence[Event]) -> None:
            difference = first_difference(log.events, events)
            if difference is not None:
                raise LogRefused(difference)

        if self._dry_run:
            present = await self._present(stream, header.line, logged, with_ids=True)
            return present or self._dry(steps, check)
        identities = [
            _identity(UUID(e.event_id), datetime.fromisoformat(e.recorded_at), e.metadata)
            for e in log.events
            if e.event_id is not None and e.recorded_at is not None
        ]
        player_ids = [p.id or "" for p in header.players]
        return await self._pending(
            stream, steps, identities, check, header, player_ids, (logged, True)
        )

    async def _text(self, log: MatchLog, header: LogHeader) -> Outcome | _Pending:
        player_ids = [p.id or text_player_id(p.name) for p in header.players]
        match_id = text_match_id(header, log.moves)
        for what, value in (("match", match_id), *(("player", p) for p in player_ids)):
            if not is_uuid(value):
                return _refused(
                    header.line, "HEADER_INVALID", f"{value!r} is not a {what} id (a UUID)"
                )
        if header.competition_id is not None and not is_uuid(header.competition_id):
            return _refused(header.line, "HEADER_INVALID", "CompetitionId is not a UUID")
        steps = steps_from_moves(header, log.moves, player_ids)
        replayed = replay(steps)
        if replayed.error is not None:
            return Outcome("refused", errors=(replayed.error,))
        mismatch = _result_mismatch(log, header, replayed.state)
        if mismatch is not None:
            return Outcome("refused", errors=(mismatch,))
        events = replayed.events
        stream = match_stream(header.game, match_id)
        regenerated = [
            (str(text_event_id(match_id, v)), e.type, e.data) for v, e in enumerate(events, 1)
        ]
        if self._dry_run:
            present = await self._present(stream, header.line, regenerated, with_ids=False)
            return present or Outcome("imported", len(events))

        def check(decided: Sequence[Event]) -> None:
            if [(e.type, e.data) for e in decided] != [(e.type, e.data) for e in events]:
                raise LogRefused(
                    LogError(
                        header.line,
                        "EVENT_MISMATCH",
                        "the engine gave other events on the second pass",
                    )
                )

        # A text log has no times: its events are dated by its Date tag (the day the
        # match was played, at 00:00 UTC), or by the import when it has none.
        played = None
        if header.created_at is not None:
            played = datetime.fromisoformat(header.created_at).replace(tzinfo=UTC)
        identities = [
            EventIdentity(text_event_id(match_id, v), played) for v in range(1, len(events) + 1)
        ]
        if header.tags:
            # Event, Site and Scorer have no column: they ride on MatchCreated's metadata.
            metadata = {**_IMPORT_METADATA, "tags": dict(header.tags)}
            identities[0] = EventIdentity(identities[0].event_id, played, metadata)
        # The replay resolved the text's notes and takebacks into versions: record those.
        return await self._pending(
            stream, replayed.steps, identities, check, header, player_ids, (regenerated, False)
        )

    def _dry(self, steps: Sequence[Step], check: Any) -> Outcome:
        replayed = replay(steps)
        if replayed.error is not None:
            return Outcome("refused", errors=(replayed.error,))
        check(replayed.events)
        return Outcome("imported", len(replayed.events))

    async def _pending(
        self,
        stream: str,
        steps: Sequence[Step],
        identities: Sequence[EventIdentity],
        check: Any,
        header: LogHeader,
        player_ids: Sequence[str],
        expected: tuple[Sequence[tuple[str | None, str, Any]], bool],
    ) -> Outcome | _Pending:
        """Return the recorder's request for a new match (refused: its outcome).

        ``expected`` is what its stream should hold and whether event ids count.
        """
        if header.competition_id is not None and header.competition_id not in self._competitions:
            # Check the first match of a competition before creating the competition,
            # so a refused match leaves no row behind (once per competition and import).
            checked = self._dry(steps, check)
            if checked.status == "refused":
                return checked
            await self._competition(header)
        new_players = [
            (p.name, pid)
            for p, pid in zip(header.players, player_ids, strict=True)
            if pid not in self._players
        ]
        request = Request(
            stream,
            [s.command for s in steps],
            expected_version=0,
            metadata=_IMPORT_METADATA,
            identities=identities,
            check=check,
        )
        return _Pending(request, steps, header, new_players, *expected)

    async def _compare(self, pending: _Pending) -> Outcome | None:
        """Compare a match with its stream: ``present``, MATCH_EXISTS, or ``None`` if empty."""
        return await self._present(
            pending.request.stream,
            pending.header.line,
            pending.events,
            with_ids=pending.with_ids,
        )

    async def _present(
        self,
        stream: str,
        line: int,
        events: Sequence[tuple[str | None, str, Any]],
        *,
        with_ids: bool,
    ) -> Outcome | None:
        async with self._pool.connection() as conn:
            stored = await stream_contents(conn, stream)
        if not stored:
            return None
        same = len(stored) == len(events) and all(
            (not with_ids or s[0] == e[0]) and s[1] == e[1] and same_data(s[2], e[2])
            for s, e in zip(stored, events, strict=True)
        )
        if same:
            return Outcome("present", len(stored))
        return _refused(
            line,
            "MATCH_EXISTS",
            f"{stream!r} is already recorded with other events ({len(stored)} stored)",
        )

    async def _competition(self, header: LogHeader) -> None:
        """Create the header's competition when missing (its id kept), once per import."""
        competition = header.competition_id
        if competition is None or competition in self._competitions:
            return
        fmt: Any = header.format if header.game == "cuttle" else dict(header.options)
        async with self._pool.connection() as conn:
            # One already there keeps its own name and settings.
            with contextlib.suppress(ConflictError):
                await accounts.create_competition(
                    conn,
                    name=header.competition_name or f"Imported {competition[:8]}",
                    game=header.game,
                    variant=header.variant,
                    match_format=fmt,
                    competition_id=UUID(competition),
                )
        self._competitions.add(competition)


def _refused(line: int, code: str, message: str) -> Outcome:
    return Outcome("refused", errors=(LogError(line, code, message),))


def _result_mismatch(log: MatchLog, header: LogHeader, state: MatchState) -> LogError | None:
    if log.result is None or log.result == "*":
        if state.result is not None and log.result == "*":
            return LogError(
                log.result_line or header.line,
                "RESULT_MISMATCH",
                "the match is over; its result is not '*'",
            )
        return None
    said = " ".join(log.result.split())
    if state.result is None:
        return LogError(
            log.result_line or header.line,
            "RESULT_MISMATCH",
            f"the log says {said!r}, but the match is not over",
        )
    actual = text.result_text(state.result.winners, header.game)
    if said.upper() != actual.upper():
        return LogError(
            log.result_line or header.line,
            "RESULT_MISMATCH",
            f"the log says {said!r}, the engine gives {actual!r}",
        )
    return None


def _open(name: str) -> IO[bytes]:
    if name == "-":
        return sys.stdin.buffer
    return open(name, "rb")


def run_import(paths: Sequence[str], *, dry_run: bool, view: ImportView, jobs: int = 1) -> Summary:
    """Import every match of ``paths`` and return what happened; ``view`` shows problems.

    With ``jobs`` above 1, batches of matches are checked and recorded by that many
    worker processes (each with its own recorder), while this process reads the
    input; the batches still land in input order (their turns: store/turns.py),
    and results are reported in it. The workers start before the event loop does
    (see ``_Workers``), so call this outside one.
    """
    url = database_url()
    summary = Summary()
    workers = _Workers(url, dry_run, jobs) if jobs > 1 else None
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
    workers: _Workers | None,
    summary: Summary,
) -> None:
    thresholds = _collect_less()
    try:
        await _import_all(paths, dry_run, view, workers, url, summary)
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()


async def _import_all(
    paths: Sequence[str],
    dry_run: bool,
    view: ImportView,
    workers: _Workers | None,
    url: str,
    summary: Summary,
) -> None:
    async with open_pool(url) as pool:
        started = time.perf_counter()
        importer = Importer(recorder_for(pool), dry_run=dry_run)
        in_flight: _InFlight = _Overlapped(importer) if workers is None else workers
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
    in_flight: _InFlight,
    view: ImportView,
    summary: Summary,
) -> None:
    """Read every input, hand its matches to ``in_flight``, count what became of them."""
    for name in iter_paths(paths):
        shown = "<stdin>" if name == "-" else name
        try:
            raw = _open(name)
        except OSError as e:
            summary.problems.append(f"{shown}:0: UNREADABLE {e.strerror or e}")
            view.unreadable(summary.problems[-1])
            continue
        try:
            size = Path(name).stat().st_size if name != "-" else None
            view.reading(shown, size)
            source = _Source(shown, raw)
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


def _collect_less() -> tuple[int, int, int]:
    """Collect garbage less often from now on; return the thresholds it replaced.

    An import allocates a dozen short-lived, acyclic objects per event, and at
    CPython's default a collection runs every 700 allocations (and now and then walks
    every long-lived module and engine table). Freezing what exists now and
    collecting every 50,000 allocations saves 5-10% of the import's CPU time
    (docs/benchmarks.md); memory stays flat, because almost nothing an import makes
    is cyclic.
    """
    thresholds = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)
    return thresholds


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
    _collect_less()  # a worker lives for one import


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


BATCH_MATCHES = 32
"""Matches recorded per transaction, at most: each statement costs a fixed ~0.2 ms of
Python, so a batch writes its matches' events, rows and players with a few."""

BATCH_EVENTS = 4096
"""Events per transaction, at most (however few matches that makes)."""


_Item = MatchLog | _Chunk
"""What a batch is made of: read matches, or (with ``--jobs``) chunks a worker reads."""


def _size(item: _Item) -> int:
    """Return about how many events an item brings (a chunk: its lines)."""
    if isinstance(item, MatchLog):
        return len(item.events) + len(item.moves)
    return len(item.lines)


class _InFlight(ABC):
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


class _Overlapped(_InFlight):
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


def _worker_context() -> Any:
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


class _Workers(_InFlight):
    """Worker processes that import batches; at most two per worker are in flight.

    Build it before the event loop runs: the processes start here. The workers
    ignore Ctrl-C: this process is told of it too, and aborts the batches in flight
    (a worker finishes the batch it is writing, whole) before it shuts them down.
    """

    reads_chunks = True

    def __init__(self, url: str, dry_run: bool, jobs: int) -> None:
        super().__init__(limit=2 * jobs)
        context = _worker_context()
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
    if outcome.status == "imported":
        summary.imported += 1
        summary.events += outcome.events
    elif outcome.status == "present":
        summary.present += 1
    else:
        summary.refused += 1
        for error in outcome.errors:
            view.refused(error.text(shown))


__all__ = [
    "ImportView",
    "Importer",
    "Outcome",
    "Summary",
    "default_jobs",
    "read_logs",
    "run_import",
]
