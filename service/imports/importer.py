"""Checking matches and recording them: the engine's verdict on each, a batch per transaction.

Each match is checked by the same engine and recorder as the API and recorded whole
or not at all; a batch the database refuses is recorded match by match. What became
of each match is its ``Outcome``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

import psycopg
from psycopg_pool import AsyncConnectionPool

from domain.competitions import checked_settings
from domain.errors import ConflictError, DomainError, NotFoundError
from domain.events import Event
from domain.logs import text
from domain.logs.base import LogError, LogHeader, MatchLog
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
from domain.stream import CreateMatch, MatchState, rules_for
from service import competitions
from service.competitions import NewCompetition
from service.exporter import is_uuid
from service.formats import check_config
from store import accounts
from store.accounts import Competition
from store.events import EventIdConflictError, VersionConflictError
from store.reads import stream_contents
from store.recorder import EventIdentity, Recorded, Recorder, Request, match_stream
from store.turns import NumberedTurn

_identity = builder(EventIdentity)
"""A canonical import builds one per event: skip the frozen ``__init__`` (domain/records.py)."""

_IMPORT_METADATA = {"source": "import"}
"""The metadata of events an import records (a canonical log brings its own)."""


class LogRefused(DomainError):
    """A log's events differ from what the engine gives; carries the line."""

    default_code = "EVENT_MISMATCH"

    def __init__(self, error: LogError) -> None:
        super().__init__(error.message, code=error.code, details={"line": error.line})
        self.error = error


@dataclass(frozen=True, slots=True)
class Outcome:
    """What became of one match: ``imported``, ``present`` or ``refused``."""

    status: str
    events: int = 0
    errors: tuple[LogError, ...] = ()
    competition_id: str | None = None
    """The competition an imported (or already recorded) match counts in."""


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
        self._formats: dict[str, Competition] = {}
        """The competitions of this import's matches, as their formats were read."""

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
            return Outcome("present", len(result.events), competition_id=header.competition_id)
        self._players.update(pid for _, pid in pending.new_players)
        return Outcome("imported", len(result.events), competition_id=header.competition_id)

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
            return present or await self._off_format(header, steps) or self._dry(steps, check)
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
            off_format = present or await self._off_format(header, replayed.steps)
            return off_format or Outcome("imported", len(events))

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
        off_format = await self._off_format(header, steps)
        if off_format is not None:
            # One recorded before the rule held is still there, not refused.
            present = await self._present(stream, header.line, expected[0], with_ids=expected[1])
            return present or off_format
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

    async def _off_format(self, header: LogHeader, steps: Sequence[Step]) -> Outcome | None:
        """Refuse a match whose rules are not its competition's (``service.formats``)."""
        competition_id = header.competition_id
        if competition_id is None:
            return None
        created = steps[0].command
        assert isinstance(created, CreateMatch)
        try:
            check_config(await self._competition_of(header, competition_id), created.config)
        except DomainError as e:
            return _refused(header.line, e.code, e.message)
        return None

    async def _competition_of(self, header: LogHeader, competition_id: str) -> Competition:
        """Return the competition of ``header``'s match, read once per import."""
        competition = self._formats.get(competition_id)
        if competition is None:
            async with self._pool.connection() as conn:
                try:
                    competition = await accounts.get_competition(conn, UUID(competition_id))
                except NotFoundError:
                    # Only in a dry run, which creates nothing: hold the matches after
                    # this one to the competition it would create.
                    competition = _would_create(header)
            self._formats[competition_id] = competition
        return competition

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
        async with self._pool.connection() as conn:
            # One already there keeps its own name and settings.
            with contextlib.suppress(ConflictError):
                await competitions.create_competition(conn, _new_competition(header))
        self._competitions.add(competition)


def _new_competition(header: LogHeader) -> NewCompetition:
    """Return the competition an import creates for ``header``'s match: its settings the
    match's, the rest the defaults (``service.competitions``)."""
    assert header.competition_id is not None
    return NewCompetition(
        name=header.competition_name or f"Imported {header.competition_id[:8]}",
        game=header.game,
        variant=header.variant,
        match_format=rules_for(header.game).competition_format(header.format, header.options),
        id=UUID(header.competition_id),
    )


def _would_create(header: LogHeader) -> Competition:
    """Return the competition an import creates for ``header``'s match (``_competition``),
    its settings checked by the same rule."""
    new = _new_competition(header)
    settings = checked_settings(new.game, new.variant, new.match_format, new.tiebreaks, new.bye)
    assert new.id is not None
    return Competition(
        id=new.id,
        name=new.name,
        game=settings.game,
        variant=settings.variant,
        match_format=settings.match_format,
        tiebreaks=settings.tiebreaks,
        public_reads=new.public_reads,
        created_at=datetime.now(UTC),
        position=0,
        bye=settings.bye,
    )


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
