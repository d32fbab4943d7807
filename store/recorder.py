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

import random
import secrets
import uuid
from collections import Counter, OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

import psycopg
from psycopg_pool import AsyncConnectionPool

from domain.cards import format_cards
from domain.errors import ConflictError, DomainError
from domain.events import Event, NewEvent, RecordedEvent
from domain.records import builder
from domain.stream import (
    UNDOING_EVENTS,
    Command,
    CreateMatch,
    MatchConfig,
    MatchState,
    Play,
    StartRound,
    evolve,
    fold_stream,
    rules_for,
    step,
)
from store.accounts import lock_usable_tokens, token_refused
from store.events import (
    AppendResult,
    Notifier,
    VersionConflictError,
    append,
    append_batch,
    read_stream,
)
from store.group_commit import GroupCommit
from store.idempotency import KeyTakenError, OnceKey, claim_keys, store_answers


@dataclass(frozen=True, slots=True)
class Projection:
    """What one stream gained in a transaction: the state after it, the events as recorded.

    A transaction writes each stream once, so projectors see each stream at most once.
    """

    stream: str
    state: MatchState
    events: Sequence[RecordedEvent]


Projector = Callable[[psycopg.AsyncConnection[Any], Sequence[Projection]], Awaitable[None]]
"""An inline projection: called in the append's transaction with what each stream the
transaction wrote gained (one entry per stream), so it can write all its rows at once."""

AfterAppend = Callable[[psycopg.AsyncConnection[Any], "Recorded"], Awaitable[None]]
"""A per-call hook run in the same transaction after the projectors (e.g. storing an
idempotent response)."""

TransactionStart = Callable[[psycopg.AsyncConnection[Any]], Awaitable[None]]
"""Called first in a batch's transaction (an import fixes the batch's place in the log)."""

AfterBatch = Callable[[psycopg.AsyncConnection[Any], Sequence["Recorded"]], Awaitable[None]]
"""``record_batch``'s hook: run once in the transaction after the projectors, with what
every request that wrote events recorded (e.g. creating an import's new players)."""

Check = Callable[[Sequence[Event]], None]
"""A per-call check of the decided events before they are appended; it raises a
``DomainError`` to refuse them (a log import compares them with the log's)."""

_sysrandom = secrets.SystemRandom()


@dataclass(frozen=True, slots=True)
class EventIdentity:
    """What a log import keeps of an event beyond its type and data.

    ``metadata`` ``None`` takes the call's metadata; ``recorded_at`` ``None`` the
    database's clock.
    """

    event_id: uuid.UUID
    recorded_at: datetime | None = None
    metadata: Mapping[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class Recorded:
    """What one ``record`` call stored: the stream's new version, its events, the state.

    ``already_recorded``: the events (same ids and content) were there before; nothing
    was written, projected or handed to ``after_append``.
    """

    stream: str
    version: int
    events: tuple[RecordedEvent, ...]
    state: MatchState
    already_recorded: bool = False


@dataclass(frozen=True, slots=True)
class Request:
    """One stream's part of a ``record_batch``: what ``record`` takes for one call.

    ``token_id``: the API token the write is made with; the write's own transaction
    checks it is still usable before anything is decided (``lock_usable_tokens``).
    ``once``: its ``Idempotency-Key``; a key with an answer already refuses the
    write (``KeyTakenError``), else the answer is stored with its events.
    """

    stream: str
    commands: Sequence[Command]
    expected_version: int | None
    metadata: Mapping[str, Any] | None = None
    identities: Sequence[EventIdentity] | None = None
    check: Check | None = None
    token_id: uuid.UUID | None = None
    once: OnceKey | None = None


_Decided = tuple[list[NewEvent], MatchState, int]
"""A decided request: its new events, the state after them, the version they follow."""


class _AppendRefused(Exception):
    """The database refused a batch's append; raised to roll its transaction back."""

    def __init__(self, error: ConflictError) -> None:
        super().__init__(error.code)
        self.error = error


def _finished(outcomes: list[Recorded | DomainError | None]) -> list[Recorded | DomainError]:
    assert all(outcome is not None for outcome in outcomes)
    return [outcome for outcome in outcomes if outcome is not None]


def match_stream(game: str, match_id: uuid.UUID | str) -> str:
    """Return the stream name of a match: ``<game>-<uuid>``.

    >>> match_stream('kozel', '6f1c1f7e-0000-4000-8000-000000000000')
    'kozel-6f1c1f7e-0000-4000-8000-000000000000'
    """
    return f"{game}-{match_id}"


def shuffled_deal(config: MatchConfig, rng: random.Random | None = None) -> dict[str, Any]:
    """Shuffle a fresh deck for a server-dealt round of ``config``'s game.

    ``rng`` is for simulations that must repeat; the service always uses ``secrets``.
    """
    source = _sysrandom if rng is None else rng
    spec = rules_for(config.game).deal_spec(config)
    deck = list(spec.pack)
    source.shuffle(deck)
    deal: dict[str, Any] = {"deck": format_cards(deck)}
    if spec.indicator_positions is not None:
        deal["indicator_position"] = source.choice(spec.indicator_positions)
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
        group_commit: bool = False,
    ) -> None:
        """``group_commit``: ``record`` calls without hooks, identities or checks that
        wait at the same time share transactions (store/group_commit.py)."""
        self._pool = pool
        self._projectors = tuple(projectors)
        self._notifier = notifier
        self._cache: OrderedDict[str, tuple[int, MatchState]] = OrderedDict()
        self._cache_size = cache_size
        self._group: GroupCommit[Request, Recorded | DomainError] | None = (
            GroupCommit(self.record_batch) if group_commit else None
        )
        self.moves_recorded = 0
        """Moves (``Play`` commands) this recorder committed, for the service's metrics."""
        self.events_recorded = 0
        """Events this recorder committed (a retry of events already there counts none)."""

    @property
    def batch_sizes(self) -> Counter[int]:
        """How many group-commit batches of each size were recorded (empty without it)."""
        return Counter() if self._group is None else self._group.sizes

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
        identities: Sequence[EventIdentity] | None = None,
        check: Check | None = None,
        token_id: uuid.UUID | None = None,
        once: OnceKey | None = None,
    ) -> Recorded:
        """Decide ``commands`` against ``stream`` and append their events: all or none.

        ``expected_version`` is the version the client last saw (``None``: skip the
        check). ``check`` sees the decided events before anything is written and may
        refuse them; ``identities`` (one per decided event) give their ids, times and
        metadata instead of fresh ones, so an imported log keeps them. ``token_id``,
        the API token the write is made with, is checked in the write's transaction.
        ``once``, an idempotency key, stores the write's answer with its events.

        Raises:
            VersionConflictError (VERSION_CONFLICT): the stream moved on; its
                ``details["current_version"]`` says where it is.
            ConflictError (EVENT_COUNT_MISMATCH): ``identities`` do not match the
                decided events one for one.
            UnauthenticatedError (UNAUTHENTICATED): ``token_id`` is revoked or expired.
            KeyTakenError (IDEMPOTENCY_KEY_TAKEN): ``once`` already has an answer.
            DomainError: the first refused command's code, or the one ``check``
                raised; nothing is stored.
        """
        request = Request(
            stream, commands, expected_version, metadata, identities, check, token_id, once
        )
        solo = after_append is not None or identities is not None or check is not None
        if self._group is not None and not solo:
            # A hook may refuse its write after the append, which would roll its
            # neighbours back: such writes go alone. A key is claimed before the
            # append, so a taken one refuses its write alone: keyed writes batch.
            outcome = await self._group.record(request)
            if isinstance(outcome, DomainError):
                raise outcome
            return outcome
        hook: AfterBatch | None = None
        if after_append is not None:
            single = after_append

            async def hook(conn: psycopg.AsyncConnection[Any], done: Sequence[Recorded]) -> None:
                await single(conn, done[0])

        (outcome,) = await self.record_batch([request], after_append=hook)
        if isinstance(outcome, DomainError):
            raise outcome
        return outcome

    async def record_batch(
        self,
        requests: Sequence[Request],
        *,
        after_append: AfterBatch | None = None,
        on_transaction_start: TransactionStart | None = None,
    ) -> list[Recorded | DomainError]:
        """Record several requests in one transaction; each is still all or none.

        Returns one outcome per request, in order: what it recorded, or the
        ``DomainError`` that refused it (as ``record`` would raise it). A refused
        request leaves the others be. If the database refuses the batch's append (a
        version or event-id conflict), the transaction is rolled back and each
        request is recorded on its own, so the outcomes are exactly those of calling
        ``record`` once per request; so are they when two requests name one stream
        (each is decided against the events of the one before). ``after_append`` runs
        once, in the transaction, with every request's ``Recorded`` that wrote events.

        New streams (``expected_version`` 0, not cached) are decided before the
        transaction opens, so batches in flight overlap their deciding with each
        other's writing. ``on_transaction_start`` runs first in the batch's
        transaction: an import's orders batches there (it takes the batch's turn,
        fixes the transaction's place in the global order and gives the turn back:
        store/turns.py), so batches append side by side yet land in input order. The
        exceptions: when the database refuses a batch, its requests are recorded one
        by one after it, and when two requests name one stream, only the first one's
        transaction starts with the hook; those land after the batches that claimed
        their place meanwhile.
        """
        if len({request.stream for request in requests}) < len(requests):
            # A later request of a stream must be decided against the earlier one's
            # events, which a batch appends only at its end: go request by request.
            # The first one's transaction starts the batch's: the rest follow it.
            return [
                (
                    await self.record_batch(
                        [request],
                        after_append=after_append,
                        on_transaction_start=on_transaction_start if index == 0 else None,
                    )
                )[0]
                for index, request in enumerate(requests)
            ]
        outcomes: list[Recorded | DomainError | None] = [None] * len(requests)
        early: dict[int, _Decided] = {}
        for index, request in enumerate(requests):
            if self._is_new(request):
                try:
                    early[index] = await self._decide(None, request)
                except DomainError as e:
                    outcomes[index] = e
        refused = await self._write(requests, early, outcomes, after_append, on_transaction_start)
        if refused is not None and len(refused) > 1:
            # The batch's append was refused: record each decided request alone
            # (deciding it again: nothing of the batch was stored or cached).
            for index in refused:
                single: list[Recorded | DomainError | None] = [None]
                await self._write([requests[index]], {}, single, after_append, None)
                outcomes[index] = single[0]
        return _finished(outcomes)

    async def _write(
        self,
        requests: Sequence[Request],
        early: Mapping[int, _Decided],
        outcomes: list[Recorded | DomainError | None],
        after_append: AfterBatch | None,
        on_transaction_start: TransactionStart | None,
    ) -> list[int] | None:
        """Decide what is left, append, project and commit; fill ``outcomes``.

        ``on_transaction_start`` runs first in the transaction. Returns ``None`` when
        the transaction committed, or
        the indexes of the requests whose batch the database refused (one: its
        error is its outcome).
        """
        decided: list[tuple[int, _Decided]] = []
        async with self._pool.connection() as conn:
            try:
                async with conn.transaction():
                    if on_transaction_start is not None:
                        await on_transaction_start(conn)
                    await self._check_tokens(conn, requests, outcomes)
                    for index, request in enumerate(requests):
                        if outcomes[index] is not None:
                            continue
                        if index in early:
                            decided.append((index, early[index]))
                        else:
                            try:
                                decided.append((index, await self._decide(conn, request)))
                            except DomainError as e:
                                outcomes[index] = e
                    decided = await self._claim_keys(conn, requests, decided, outcomes)
                    try:
                        results = await self._append(conn, requests, decided)
                    except ConflictError as e:
                        raise _AppendRefused(e) from e  # rolls the transaction back
                    done = [
                        Recorded(
                            requests[index].stream,
                            result.version,
                            result.events,
                            after,
                            result.already_recorded,
                        )
                        for (index, (_, after, _)), result in zip(decided, results, strict=True)
                    ]
                    # A retry of events already recorded (the same ids, as two imports of
                    # one log racing) was projected the first time: project nothing twice.
                    fresh = [recorded for recorded in done if not recorded.already_recorded]
                    if fresh:
                        projected = [Projection(r.stream, r.state, r.events) for r in fresh]
                        for projector in self._projectors:
                            await projector(conn, projected)
                        await store_answers(
                            conn,
                            [
                                (once, recorded)
                                for (index, _), recorded in zip(decided, done, strict=True)
                                if (once := requests[index].once) is not None
                                and not recorded.already_recorded
                            ],
                        )
                        if after_append is not None:
                            await after_append(conn, fresh)
            except _AppendRefused as refused:
                if len(decided) == 1:
                    outcomes[decided[0][0]] = refused.error
                return [index for index, _ in decided]
        for (index, _), recorded in zip(decided, done, strict=True):
            outcomes[index] = recorded
            self._remember(recorded.stream, recorded.version, recorded.state)
            if not recorded.already_recorded:
                self.moves_recorded += sum(
                    isinstance(command, Play) for command in requests[index].commands
                )
                self.events_recorded += len(recorded.events)
        if self._notifier is not None and fresh:
            self._notifier.notify()
        return None

    @staticmethod
    async def _claim_keys(
        conn: psycopg.AsyncConnection[Any],
        requests: Sequence[Request],
        decided: list[tuple[int, _Decided]],
        outcomes: list[Recorded | DomainError | None],
    ) -> list[tuple[int, _Decided]]:
        """Hold the decided requests' idempotency keys; refuse those already answered.

        Returns the decided requests left to append. Of two requests with one key,
        the first holds it and the second is refused as if it came after.
        """
        free = await claim_keys(
            conn, [once for index, _ in decided if (once := requests[index].once) is not None]
        )
        kept: list[tuple[int, _Decided]] = []
        for index, decision in decided:
            once = requests[index].once
            if once is not None:
                if once.name not in free:
                    outcomes[index] = KeyTakenError(once.key)
                    continue
                free.discard(once.name)
            kept.append((index, decision))
        return kept

    @staticmethod
    async def _check_tokens(
        conn: psycopg.AsyncConnection[Any],
        requests: Sequence[Request],
        outcomes: list[Recorded | DomainError | None],
    ) -> None:
        """Refuse the requests whose token is no longer usable, first in the transaction.

        Before anything is decided, so a refused token learns nothing of the match.
        """
        wanted = {
            request.token_id
            for index, request in enumerate(requests)
            if request.token_id is not None and outcomes[index] is None
        }
        if not wanted:
            return
        usable = await lock_usable_tokens(conn, wanted)
        for index, request in enumerate(requests):
            if request.token_id is not None and request.token_id not in usable:
                outcomes[index] = token_refused()

    @staticmethod
    async def _append(
        conn: psycopg.AsyncConnection[Any],
        requests: Sequence[Request],
        decided: Sequence[tuple[int, _Decided]],
    ) -> list[AppendResult]:
        """Append every decided request's events with one statement, in order."""
        batch = iter(
            await append_batch(
                conn,
                [
                    (requests[index].stream, new, version)
                    for index, (new, _, version) in decided
                    if new
                ],
            )
        )
        # A request that decided no events appends nothing; ``append`` still checks
        # that its stream is at the version it was decided against.
        return [
            next(batch) if new else await append(conn, requests[index].stream, new, version)
            for index, (new, _, version) in decided
        ]

    async def _decide(
        self, conn: psycopg.AsyncConnection[Any] | None, request: Request
    ) -> _Decided:
        """Return a request's new events, the state after them and the version they follow.

        ``conn`` may be ``None`` for a new stream (``_is_new``): there is nothing to read.
        """
        cached = self._cache.get(request.stream)
        if self._is_new(request):
            # A new stream has nothing to load; if it exists after all, the append
            # refuses it (or recognises a retry of the very same events).
            state, version = MatchState(), 0
        elif cached is not None and request.expected_version == cached[0]:
            # The writer saw what this process last recorded: decide on it without
            # reading. The append checks, under the stream's lock, that the stream is
            # still at this version; if another process wrote since, the writer's
            # version is stale too, and the append refuses it as a version conflict.
            version, state = cached
        else:
            assert conn is not None, "only a new stream is decided outside a transaction"
            state, version = await self.load(conn, request.stream)
        if request.expected_version is not None and request.expected_version != version:
            raise VersionConflictError(
                f"{request.stream!r} is at version {version}, not {request.expected_version}: "
                "reload the match and try again",
                details={
                    "stream": request.stream,
                    "current_version": version,
                    "expected_version": request.expected_version,
                },
            )
        events, after = await self._decide_all(
            conn, request.stream, state, version, request.commands
        )
        if request.check is not None:
            request.check(events)
        new = _new_events(events, dict(request.metadata or {}), request.identities)
        return new, after, version

    def _is_new(self, request: Request) -> bool:
        """Whether a request must start its stream, and this recorder has not seen it."""
        return request.expected_version == 0 and request.stream not in self._cache

    async def _decide_all(
        self,
        conn: psycopg.AsyncConnection[Any] | None,
        stream: str,
        state: MatchState,
        version: int,
        commands: Sequence[Command],
    ) -> tuple[list[Event], MatchState]:
        events: list[Event] = []
        raw: list[tuple[int, Event]] | None = None
        for command in commands:
            command = self._with_deal(state, command)
            new, stepped = step(state, command)
            events.extend(new)
            if any(event.type in UNDOING_EVENTS for event in new):
                # What a takeback restores is older than the cached state: fold the
                # stream again, with this batch's events so far.
                if raw is None:
                    recorded = [] if conn is None else await read_stream(conn, stream)
                    raw = [(r.version, Event(r.type, r.data)) for r in recorded]
                state = fold_stream(raw + list(enumerate(events, start=version + 1)))
            else:
                state = stepped
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


def _new_events(
    events: Sequence[Event],
    metadata: Mapping[str, Any],
    identities: Sequence[EventIdentity] | None,
) -> list[NewEvent]:
    if identities is None:
        return [NewEvent(uuid.uuid4(), e.type, dict(e.data), metadata) for e in events]
    if len(identities) != len(events):
        raise ConflictError(
            f"{len(identities)} event identities for {len(events)} decided events",
            code="EVENT_COUNT_MISMATCH",
            details={"identities": len(identities), "events": len(events)},
        )
    return [
        _new_event(
            i.event_id,
            e.type,
            dict(e.data),
            metadata if i.metadata is None else i.metadata,
            i.recorded_at,
        )
        for e, i in zip(events, identities, strict=True)
    ]


# An import builds one per event: skip the frozen __init__ (domain/records.py).
_new_event = builder(NewEvent)


__all__ = [
    "AfterAppend",
    "AfterBatch",
    "Check",
    "EventIdentity",
    "Projection",
    "Projector",
    "Recorded",
    "Recorder",
    "Request",
    "StartRound",
    "draw_first_dealer",
    "match_stream",
    "shuffled_deal",
]
