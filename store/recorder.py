"""The recorder: the one write path for matches (REST API and log import alike).

For one request it loads the match state (from a cache keyed by stream version, or
by folding the stream), asks the domain to decide each command in turn (a refused
command stops the batch), appends the resulting events with the version it folded,
and runs the inline projectors handed to it at wiring time, all in one
transaction; after the commit it asks the notifier to wake live readers (design.md,
"the flow of one move", step 4). Server-dealt rounds are shuffled here, with
``secrets``, and the deck is passed into the command, so the domain stays free of
randomness.
"""

from __future__ import annotations

import secrets
import uuid
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import psycopg
from psycopg_pool import AsyncConnectionPool

from domain.cards import format_cards
from domain.events import Event, NewEvent, RecordedEvent
from domain.stream import (
    UNDOING_EVENTS,
    Command,
    CreateMatch,
    MatchConfig,
    MatchState,
    Play,
    StartRound,
    decide,
    evolve,
    fold_stream,
    fold_versioned,
    rules_for,
)
from store.events import Notifier, VersionConflictError, append, read_stream

Projector = Callable[
    [psycopg.AsyncConnection[Any], str, MatchState, Sequence[RecordedEvent]], Awaitable[None]
]
"""An inline projection: called in the append's transaction with the stream, the
match state after the new events, and the events as recorded."""

AfterAppend = Callable[[psycopg.AsyncConnection[Any], "Recorded"], Awaitable[None]]
"""A per-call hook run in the same transaction after the projectors (e.g. storing an
idempotent response)."""

_sysrandom = secrets.SystemRandom()


@dataclass(frozen=True, slots=True)
class Recorded:
    """What one ``record`` call stored: the stream's new version, its events, the state."""

    stream: str
    version: int
    events: tuple[RecordedEvent, ...]
    state: MatchState


def match_stream(game: str, match_id: uuid.UUID | str) -> str:
    """Return the stream name of a match: ``<game>-<uuid>``.

    >>> match_stream('kozel', '6f1c1f7e-0000-4000-8000-000000000000')
    'kozel-6f1c1f7e-0000-4000-8000-000000000000'
    """
    return f"{game}-{match_id}"


def shuffled_deal(config: MatchConfig) -> dict[str, Any]:
    """Shuffle a fresh deck for a server-dealt round of ``config``'s game."""
    spec = rules_for(config.game).deal_spec(config)
    deck = list(spec.pack)
    _sysrandom.shuffle(deck)
    deal: dict[str, Any] = {"deck": format_cards(deck)}
    if spec.indicator_positions is not None:
        deal["indicator_position"] = _sysrandom.choice(spec.indicator_positions)
    return deal


def draw_first_dealer(seats: int) -> int:
    """Draw the first dealer of a match at random (Cuttle ruling 1, Kozel R2)."""
    return secrets.randbelow(seats)


class Recorder:
    """Validates commands with the domain and appends their events, with projections."""

    def __init__(
        self,
        pool: AsyncConnectionPool[Any],
        projectors: Sequence[Projector] = (),
        *,
        notifier: Notifier | None = None,
        cache_size: int = 512,
    ) -> None:
        self._pool = pool
        self._projectors = tuple(projectors)
        self._notifier = notifier
        self._cache: OrderedDict[str, tuple[int, MatchState]] = OrderedDict()
        self._cache_size = cache_size

    @property
    def pool(self) -> AsyncConnectionPool[Any]:
        """The connection pool the recorder writes through."""
        return self._pool

    async def load(self, conn: psycopg.AsyncConnection[Any], stream: str) -> tuple[MatchState, int]:
        """Return the match state and version of ``stream``, folding only what the cache lacks.

        The state is the fold of the effective events. Events are folded on from
        the cached state, unless a takeback is among them: then the whole stream is
        folded again from its effective events (what it undoes may be cached).
        """
        version, state = self._cache.get(stream, (0, MatchState()))
        newer = await read_stream(conn, stream, after_version=version)
        if any(recorded.type in UNDOING_EVENTS for recorded in newer):
            if version == 0:
                state = fold_stream([(r.version, Event(r.type, r.data)) for r in newer])
                self._remember(stream, newer[-1].version, state)
                return state, newer[-1].version
            return await self.refold(conn, stream), newer[-1].version
        for recorded in newer:
            state = evolve(state, Event(recorded.type, recorded.data), recorded.version)
            version = recorded.version
        if newer:
            self._remember(stream, version, state)
        return state, version

    async def refold(self, conn: psycopg.AsyncConnection[Any], stream: str) -> MatchState:
        """Fold the whole of ``stream`` from its effective events, and cache the state."""
        recorded = await read_stream(conn, stream)
        state = fold_stream([(r.version, Event(r.type, r.data)) for r in recorded])
        if recorded:
            self._remember(stream, recorded[-1].version, state)
        return state

    async def record(
        self,
        stream: str,
        commands: Sequence[Command],
        *,
        expected_version: int | None,
        metadata: Mapping[str, Any] | None = None,
        after_append: AfterAppend | None = None,
    ) -> Recorded:
        """Decide ``commands`` against ``stream`` and append their events: all or none.

        ``expected_version`` is the version the client last saw (``None``: skip the
        check, as the importer does for a new stream it just created).

        Raises:
            VersionConflictError (VERSION_CONFLICT): the stream moved on; its
                ``details["current_version"]`` says where it is.
            DomainError: the first refused command's code; nothing is stored.
        """
        meta = dict(metadata or {})
        async with self._pool.connection() as conn, conn.transaction():
            state, version = await self.load(conn, stream)
            if expected_version is not None and expected_version != version:
                raise VersionConflictError(
                    f"{stream!r} is at version {version}, not {expected_version}: "
                    "reload the match and try again",
                    details={
                        "stream": stream,
                        "current_version": version,
                        "expected_version": expected_version,
                    },
                )
            events, after = await self._decide_all(conn, stream, state, version, commands)
            new_events = [
                NewEvent(uuid.uuid4(), event.type, dict(event.data), meta) for event in events
            ]
            # No NOTIFY inside the transaction: PostgreSQL commits notifying
            # transactions one at a time. The notifier wakes readers after commit.
            result = await append(conn, stream, new_events, version, channel=None)
            for projector in self._projectors:
                await projector(conn, stream, after, result.events)
            recorded = Recorded(stream, result.version, result.events, after)
            if after_append is not None:
                await after_append(conn, recorded)
        self._remember(stream, recorded.version, after)
        if self._notifier is not None:
            self._notifier.notify()
        return recorded

    async def _decide_all(
        self,
        conn: psycopg.AsyncConnection[Any],
        stream: str,
        state: MatchState,
        version: int,
        commands: Sequence[Command],
    ) -> tuple[list[Event], MatchState]:
        events: list[Event] = []
        raw: list[tuple[int, Event]] | None = None
        for command in commands:
            command = self._with_deal(state, command)
            new = decide(state, command)
            numbered = list(enumerate(new, start=version + len(events) + 1))
            events.extend(new)
            if any(event.type in UNDOING_EVENTS for event in new):
                # What a takeback restores is older than the cached state: fold the
                # stream again, with this batch's events so far.
                if raw is None:
                    raw = [
                        (r.version, Event(r.type, r.data)) for r in await read_stream(conn, stream)
                    ]
                state = fold_stream(raw + list(enumerate(events, start=version + 1)))
            else:
                state = fold_versioned(numbered, state)
        return events, state

    @staticmethod
    def _with_deal(state: MatchState, command: Command) -> Command:
        """Give a server-dealt command the freshly shuffled deck it may need."""
        if isinstance(command, CreateMatch):
            if command.config.dealing == "server" and command.deal is None:
                return replace(command, deal=shuffled_deal(command.config))
            return command
        if (
            isinstance(command, Play)
            and command.next_deal is None
            and state.config is not None
            and state.config.dealing == "server"
        ):
            return replace(command, next_deal=shuffled_deal(state.config))
        return command

    def _remember(self, stream: str, version: int, state: MatchState) -> None:
        self._cache[stream] = (version, state)
        self._cache.move_to_end(stream)
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)


__all__ = [
    "AfterAppend",
    "Projector",
    "Recorded",
    "Recorder",
    "StartRound",
    "draw_first_dealer",
    "match_stream",
    "shuffled_deal",
]
