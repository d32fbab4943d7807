"""The event store: append to a stream, read it back, tail the log.

One table (``events``, migration 0001) after Message DB's shape. Every write goes
through the SQL function ``events_append`` in the caller's transaction; see
docs/event-store.md for why tailing readers can never skip a late commit. The hash
chain each append extends is checked by ``store/chain.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final, TypeVar, cast
from uuid import UUID

import msgspec
import psycopg
import rfc8785
from psycopg_pool import AsyncConnectionPool

from domain.errors import ConflictError
from domain.events import NewEvent, RecordedEvent
from domain.records import builder

T = TypeVar("T")

_log = logging.getLogger(__name__)

CHANNEL: Final = "matchlog_events"
"""The NOTIFY channel an append wakes; the payload names the stream (a hint, not data)."""

_SAFE_INTEGER: Final = 2**53 - 1

EVENT_COLUMNS: Final = (
    "global_position, stream, version, event_id, type, data, metadata, recorded_at, hash"
)
"""The columns ``recorded_event`` reads a row of, in its order."""

# Migration 0011's function: each event's data and metadata as canonical JSON text,
# which the database both stores (as jsonb) and hashes (chain v2, store/chain.py);
# NULL recorded-at entries (or a NULL array) take the database's clock, and a log
# import brings its own times.
_APPEND_SQL: Final = (
    "SELECT global_position, version, recorded_at, hash, metadata FROM events_append("
    "%s, %s, %s::uuid[], %s::text[], %s::text[], %s::text[], %s, %b::timestamptz[])"
)

# SQLSTATEs raised by events_append (migration 0001).
_VERSION_CONFLICT: Final = "MLV01"
_EVENT_ID_CONFLICT: Final = "MLE01"
_TOO_MANY: Final = "MLT01"

MAX_EVENTS_PER_TRANSACTION: Final = 65536
"""A position keeps 16 bits for an event's rank within its transaction."""


class VersionConflictError(ConflictError):
    """The stream is not at the version the caller expected."""

    default_code = "VERSION_CONFLICT"


class EventIdConflictError(ConflictError):
    """An event id is already recorded with other content or in another place."""

    default_code = "EVENT_ID_CONFLICT"


@dataclass(frozen=True, slots=True)
class AppendResult:
    """What an append recorded: the stream's new version and the recorded events.

    ``already_recorded`` is true when the call was an idempotent retry of events
    that were recorded before; nothing was written, and a recorder must not apply
    its projections again.
    """

    version: int
    events: tuple[RecordedEvent, ...]
    already_recorded: bool = False

    @property
    def positions(self) -> tuple[int, ...]:
        """Return the global positions of the recorded events."""
        return tuple(e.global_position for e in self.events)


def canonical_json(value: Any) -> str:
    """Return the RFC 8785 canonical JSON text of ``value``.

    Values without floats whose keys are ASCII take a fast path through msgspec,
    which writes them exactly as RFC 8785 does (a property test holds it to the
    reference); anything else goes through ``rfc8785``.

    >>> canonical_json({'b': [1, True, None], 'a': 'é\\n'})
    '{"a":"é\\\\n","b":[1,true,null]}'
    >>> canonical_json({'x': 1.0, '€': 'y'})
    '{"x":1,"€":"y"}'
    """
    if _is_plain(value):
        try:
            return _PLAIN_JSON(value).decode()
        except UnicodeEncodeError:
            pass  # a lone surrogate: the reference decides what to do with it
    return rfc8785.dumps(value).decode()


_PLAIN_JSON: Final = msgspec.json.Encoder(order="sorted").encode


def _is_plain(value: Any) -> bool:
    # RFC 8785 sorts keys by UTF-16 code units and prints floats the ECMAScript way;
    # for ASCII keys and no floats msgspec's output is identical. Exact type
    # checks, not isinstance: a subclass (an IntEnum, say) takes the rfc8785 path.
    # A loop, not recursion: this runs for every event an import appends.
    pending = [value]
    while pending:
        item = pending.pop()
        kind = type(item)
        if kind is str or kind is bool or item is None:
            continue
        if kind is int:
            if not -_SAFE_INTEGER <= item <= _SAFE_INTEGER:
                return False
        elif kind is dict:
            for key in item:
                if type(key) is not str or not key.isascii():
                    return False
            pending.extend(item.values())
        elif kind is list or kind is tuple:
            pending.extend(item)
        else:
            return False
    return True


class _EventArrays:
    """The per-event arrays of an ``events_append*`` call, built stream by stream.

    ``append`` fills it with one stream, ``append_batch`` with several: both send
    the same texts, flattened in stream order.
    """

    __slots__ = ("data", "events", "ids", "types")

    def __init__(self) -> None:
        self.events: list[NewEvent] = []
        self.ids: list[str] = []
        self.types: list[str] = []
        self.data: list[str] = []

    def add(self, events: Sequence[NewEvent]) -> None:
        """Add a stream's events after those added before."""
        self.events.extend(events)
        self.ids.extend([str(e.event_id) for e in events])
        self.types.extend([e.type for e in events])
        # The data travels as its canonical text: what the database stores and hashes.
        self.data.extend([canonical_json(dict(e.data)) for e in events])

    def literals(self) -> tuple[str, str, str, str]:
        """Return the ids, types, data and metadata as array literals."""
        return (
            _array_literal(self.ids),
            _array_literal(self.types),
            _array_literal(self.data),
            _array_literal(_metadata_texts(self.events)),
        )


def _append_params(
    stream: str, events: Sequence[NewEvent], expected_version: int | None, channel: str | None
) -> tuple[Any, ...]:
    arrays = _EventArrays()
    arrays.add(events)
    return (stream, expected_version, *arrays.literals(), channel, _recorded_at_param(events))


def _metadata_texts(events: Sequence[NewEvent]) -> list[str]:
    """Return each event's metadata as canonical JSON; a run of equal metadata is encoded once.

    Canonical because the database hashes the text it is sent (chain v2).
    """
    texts: list[str] = []
    last: Mapping[str, Any] | None = None
    text = ""
    for event in events:
        if last is None or event.metadata != last:
            last, text = event.metadata, canonical_json(dict(event.metadata))
        texts.append(text)
    return texts


def _recorded_at_param(events: Sequence[NewEvent]) -> list[datetime | None] | None:
    """Return the events' recorded-at times, or ``None`` when every one takes the clock.

    They travel in binary (``%b``): psycopg packs a list of datetimes several times
    faster than formatting each as ISO 8601 text, and the server reads them without
    parsing. A ``None`` entry is NULL, which takes the database's clock.
    """
    times = [e.recorded_at for e in events]
    if any(t is not None for t in times):
        return times
    return None


def _array_literal(items: Sequence[str]) -> str:
    r"""Return a PostgreSQL array literal of ``items``, each quoted.

    Strings travel cheaper than psycopg's list adaptation, which is per element;
    one join and two replaces over the joined text beat quoting item by item (no
    item holds a NUL: PostgreSQL text cannot, and JSON text escapes it).

    >>> print(_array_literal(['a', 'say "hi"', 'back\\slash', '{}']))
    {"a","say \"hi\"","back\\slash","{}"}
    """
    joined = "\x00".join(items).replace("\\", "\\\\").replace('"', '\\"')
    return '{"' + joined.replace("\x00", '","') + '"}'


async def append(
    conn: psycopg.AsyncConnection[Any],
    stream: str,
    events: Sequence[NewEvent],
    expected_version: int | None,
    *,
    channel: str | None = CHANNEL,
) -> AppendResult:
    """Append ``events`` to ``stream`` in the transaction of ``conn``: all or none.

    ``expected_version`` is the version the caller last saw (0: the stream must be
    empty; ``None``: any). The caller commits (and may write its projections in the
    same transaction, before or after). An event's ``recorded_at``, when given, is
    stored instead of the database's clock (log import). A retry of already-recorded
    event ids with the same stream, order, type and data returns the original result
    (``already_recorded``) before the version is checked. Same-stream appends wait
    for each other's commit. ``channel`` is NOTIFYed on commit with the stream name
    as payload; ``None`` sends nothing (then call ``Notifier.notify()`` after the
    commit: notifying transactions commit one at a time, see ``Notifier``).

    Raises:
        VersionConflictError (VERSION_CONFLICT): the stream is at another version;
            ``details["current_version"]`` says which.
        EventIdConflictError (EVENT_ID_CONFLICT): an event id is already recorded
            with other content or place, or repeats within ``events``.
        ValueError: the transaction would hold more than 65536 events.
    """
    ids = _distinct_ids(stream, events)
    if len(events) > MAX_EVENTS_PER_TRANSACTION:
        raise ValueError(f"at most {MAX_EVENTS_PER_TRANSACTION} events per transaction")
    if not events:
        current = await stream_version(conn, stream)
        _check_version(stream, expected_version, current)
        return AppendResult(current, ())
    params = _append_params(stream, events, expected_version, channel)
    try:
        cur = await conn.execute(_APPEND_SQL, params)
    except psycopg.Error as e:
        raise _translate(e, stream, expected_version, ids) from e
    return _append_result(stream, events, await cur.fetchall())


async def claim_position(conn: psycopg.AsyncConnection[Any]) -> None:
    """Fix now where the open transaction's events will fall in the global order.

    Positions come from the transaction's id, which PostgreSQL assigns at the first
    write; this assigns it at once, with a query that costs a round trip. Writers
    that take turns to keep an order (store/turns.py) then hold a turn only that
    long, not for their whole append.
    """
    await conn.execute("SELECT pg_current_xact_id()")


_APPEND_BATCH_SQL: Final = (
    "SELECT global_position, version, recorded_at, hash, metadata FROM events_append_batch("
    "%s::text[], %s::bigint[], %s::int[], %s::uuid[], %s::text[], %s::text[], %s::text[], "
    "%b::timestamptz[])"
)


async def append_batch(
    conn: psycopg.AsyncConnection[Any],
    appends: Sequence[tuple[str, Sequence[NewEvent], int | None]],
) -> list[AppendResult]:
    """Append to several streams with one statement, as ``append`` once per item in order.

    Each item is ``(stream, events, expected_version)`` with the meaning it has for
    ``append``; the results come back one per item, in order, each as ``append``
    would have returned it (``already_recorded`` included). A stream may appear more
    than once: a later item sees the rows of the earlier ones. Nothing is NOTIFYed
    (call ``Notifier.notify()`` after the commit). It runs in the caller's
    transaction; an error in any item aborts the whole statement, so after the
    rollback nothing of the batch is left. Streams are locked in item order, as
    sequential appends would lock them. An empty ``appends`` sends no query.

    Raises:
        VersionConflictError (VERSION_CONFLICT): a stream is at another version;
            the error does not say which: ``details["streams"]`` lists them all,
            ``details["current_version"]`` is the offending stream's version.
        EventIdConflictError (EVENT_ID_CONFLICT): an event id is already recorded
            with other content or place, or repeats within one item's events.
        ValueError: an item has no events, or the transaction would hold more than
            65536 events.
    """
    if not appends:
        return []
    if sum(len(events) for _, events, _ in appends) > MAX_EVENTS_PER_TRANSACTION:
        raise ValueError(f"at most {MAX_EVENTS_PER_TRANSACTION} events per transaction")
    arrays = _EventArrays()
    for stream, events, _ in appends:
        if not events:
            raise ValueError(f"an append_batch item needs events; {stream!r} has none")
        _distinct_ids(stream, events)
        arrays.add(events)
    streams = [stream for stream, _, _ in appends]
    expected = [version for _, _, version in appends]
    params = (
        _array_literal(streams),
        "{" + ",".join("NULL" if v is None else str(v) for v in expected) + "}",
        "{" + ",".join(str(len(events)) for _, events, _ in appends) + "}",
        *arrays.literals(),
        _recorded_at_param(arrays.events),
    )
    try:
        cur = await conn.execute(_APPEND_BATCH_SQL, params)
    except psycopg.Error as e:
        raise _translate_batch(e, streams, expected, arrays.ids) from e
    rows = await cur.fetchall()
    results = []
    first = 0
    for stream, events, _ in appends:
        last = first + len(events)
        results.append(_append_result(stream, events, rows[first:last]))
        first = last
    return results


def _distinct_ids(stream: str, events: Sequence[NewEvent]) -> list[UUID]:
    """Return the events' ids; raise EVENT_ID_CONFLICT if one repeats."""
    ids = [e.event_id for e in events]
    if len(set(ids)) != len(ids):
        raise EventIdConflictError(
            f"an event id repeats within one append to {stream!r}",
            details={"stream": stream, "event_ids": [str(i) for i in ids]},
        )
    return ids


def _append_result(
    stream: str, events: Sequence[NewEvent], rows: Sequence[tuple[Any, ...]]
) -> AppendResult:
    # Fresh rows come back without metadata (the caller has it); an idempotent
    # retry's come with what was stored the first time.
    replay = rows[0][4] is not None
    recorded = tuple(
        _recorded_event(
            position,
            stream,
            version,
            event.event_id,
            event.type,
            event.data,
            stored_metadata if replay else event.metadata,
            recorded_at,
            digest.hex(),
        )
        for (position, version, recorded_at, digest, stored_metadata), event in zip(
            rows, events, strict=True
        )
    )
    return AppendResult(recorded[-1].version, recorded, already_recorded=replay)


def _check_version(stream: str, expected: int | None, current: int) -> None:
    if expected is not None and expected != current:
        raise _version_conflict(stream, expected, current)


def _version_conflict(stream: str, expected: int | None, current: int) -> VersionConflictError:
    return VersionConflictError(
        f"stream {stream!r} is at version {current}, not {expected}",
        details={"stream": stream, "expected_version": expected, "current_version": current},
    )


def _translate(
    error: psycopg.Error, stream: str, expected: int | None, ids: Sequence[UUID]
) -> Exception:
    return _translated(
        error,
        lambda current: _version_conflict(stream, expected, current),
        repr(stream),
        {"stream": stream, "event_ids": [str(i) for i in ids]},
    )


def _translate_batch(
    error: psycopg.Error, streams: list[str], expected: list[int | None], ids: list[str]
) -> Exception:
    # The failing call inside events_append_batch is not named by the error; the
    # database's message (which names the stream) goes into ours.
    where = f"one of {len(streams)} streams"

    def version_conflict(current: int) -> VersionConflictError:
        return VersionConflictError(
            f"{where} is not at its expected version ({error.diag.message_primary})",
            details={"streams": streams, "expected_versions": expected, "current_version": current},
        )

    return _translated(error, version_conflict, where, {"streams": streams, "event_ids": ids})


def _translated(
    error: psycopg.Error,
    version_conflict: Callable[[int], VersionConflictError],
    where: str,
    details: dict[str, Any],
) -> Exception:
    if error.sqlstate == _VERSION_CONFLICT:
        return version_conflict(int(error.diag.message_detail or 0))
    is_id_clash = (
        isinstance(error, psycopg.errors.UniqueViolation)
        and error.diag.constraint_name == "events_event_id_key"
    )
    if error.sqlstate == _EVENT_ID_CONFLICT or is_id_clash:
        return EventIdConflictError(
            f"event ids already recorded with other content or in another place: {where}",
            details=details,
        )
    if error.sqlstate == _TOO_MANY:
        return ValueError(f"at most {MAX_EVENTS_PER_TRANSACTION} events per transaction")
    return error


async def stream_version(conn: psycopg.AsyncConnection[Any], stream: str) -> int:
    """Return the version of ``stream``'s last event (0 for an empty stream)."""
    cur = await conn.execute(
        "SELECT coalesce(max(version), 0) FROM events WHERE stream = %s", (stream,)
    )
    row = await cur.fetchone()
    assert row is not None
    return int(row[0])


async def read_stream(
    conn: psycopg.AsyncConnection[Any],
    stream: str,
    *,
    after_version: int = 0,
    limit: int | None = None,
) -> list[RecordedEvent]:
    """Return ``stream``'s events after ``after_version`` (exclusive), oldest first."""
    cur = await conn.execute(
        f"SELECT {EVENT_COLUMNS} FROM events WHERE stream = %s AND version > %s "
        "ORDER BY version LIMIT %s",
        (stream, after_version, limit),
    )
    return [recorded_event(row) for row in await cur.fetchall()]


async def read_all(
    conn: psycopg.AsyncConnection[Any], *, after_position: int = 0, limit: int = 1000
) -> list[RecordedEvent]:
    """Return events of every stream after ``after_position`` (exclusive), in global order.

    Only events whose transaction id lies below the snapshot's ``xmin`` are returned
    (a position's high bits are its transaction id, so this is a range on the key):
    every transaction that could still commit a lower position has then ended, so a
    reader that advances to the last position it got never skips a late commit.
    """
    cur = await conn.execute(
        f"SELECT {EVENT_COLUMNS} FROM events WHERE global_position > %s "
        "AND global_position < (pg_snapshot_xmin(pg_current_snapshot())::text::bigint << 16) "
        "ORDER BY global_position LIMIT %s",
        (after_position, limit),
    )
    return [recorded_event(row) for row in await cur.fetchall()]


def recorded_event(row: tuple[Any, ...]) -> RecordedEvent:
    """Return the event a row of ``SELECT EVENT_COLUMNS FROM events`` holds.

    For readers with a query of their own (a live feed's filtered catch-up).
    """
    position, stream, version, event_id, type_, data, metadata, recorded_at, digest = row
    return _recorded_event(
        position, stream, version, event_id, type_, data, metadata, recorded_at, digest.hex()
    )


# A read or an import builds one per event: skip the frozen __init__ (domain/records.py).
_recorded_event = builder(RecordedEvent)


async def subscribe(
    conninfo_or_pool: str | AsyncConnectionPool[Any],
    *,
    after_position: int = 0,
    channel: str = CHANNEL,
    batch_size: int = 500,
    poll_interval: float = 1.0,
) -> AsyncIterator[RecordedEvent]:
    """Yield every event after ``after_position``: first those recorded, then live ones.

    It LISTENs on its own connection (opened from the conninfo, or from the pool's
    conninfo: a tailing listener should not hold a pool slot), catches up from the
    table, then waits for a NOTIFY and reads the table again: a notification is a
    hint, never the data. It also re-reads every ``poll_interval`` seconds, because
    a long-running unrelated write transaction can hold the read horizon back past
    the last wake-up.
    """
    if isinstance(conninfo_or_pool, AsyncConnectionPool):
        conninfo = await _resolved(conninfo_or_pool.conninfo)
        pool_kwargs: dict[str, Any] | None = await _resolved(conninfo_or_pool.kwargs)
        kwargs = dict(pool_kwargs or {})
    else:
        conninfo, kwargs = conninfo_or_pool, {}
    kwargs["autocommit"] = True
    async with await psycopg.AsyncConnection.connect(conninfo, **kwargs) as conn:
        await conn.execute(psycopg.sql.SQL("LISTEN {}").format(psycopg.sql.Identifier(channel)))
        position = after_position
        while True:
            batch = await read_all(conn, after_position=position, limit=batch_size)
            for event in batch:
                yield event
                position = event.global_position
            if len(batch) < batch_size:
                async for _ in conn.notifies(timeout=poll_interval, stop_after=1):
                    pass


async def _resolved(value: T | Callable[[], T] | Callable[[], Awaitable[T]]) -> T:
    """Return a pool setting, which psycopg_pool also accepts as a (coroutine) function."""
    if not callable(value):
        return value
    result = value()
    if inspect.isawaitable(result):
        return cast(T, await result)
    return result


class Notifier:
    """Wake live readers after commits, coalescing bursts, without holding commits up.

    PostgreSQL serialises the commits of transactions that NOTIFY (each holds the
    notify-queue lock until its commit record is flushed), so an append that
    notifies in its own transaction commits alone. Appending with ``channel=None``
    and calling ``notify()`` after the commit keeps commits concurrent: one task
    sends one NOTIFY for everything poked since the previous one, at most one per
    ``min_interval`` seconds (the latency it adds), from its own connection with
    ``synchronous_commit`` off (a hint needs no fsync; the events it points at were
    committed durably before it was sent).

    Use it as ``async with Notifier(conninfo) as notifier: ...``.
    """

    def __init__(
        self, conninfo: str, *, channel: str = CHANNEL, min_interval: float = 0.01
    ) -> None:
        self._conninfo = conninfo
        self._min_interval = min_interval
        self._statement = psycopg.sql.SQL("NOTIFY {}").format(psycopg.sql.Identifier(channel))
        self._pending = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.sent = 0
        """How many NOTIFYs went out (each may stand for many commits)."""

    async def __aenter__(self) -> Notifier:
        self._task = asyncio.create_task(self._run())
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._task is not None
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task

    def notify(self) -> None:
        """Ask for a wake-up; call it after the append's transaction has committed."""
        self._pending.set()

    async def _run(self) -> None:
        lost = False
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    self._conninfo, autocommit=True
                ) as conn:
                    await conn.execute("SET synchronous_commit = off")
                    lost = False
                    while True:
                        await self._pending.wait()
                        self._pending.clear()
                        await conn.execute(self._statement)
                        self.sent += 1
                        # At most one NOTIFY per interval: commits in between share it.
                        await asyncio.sleep(self._min_interval)
            except psycopg.OperationalError as e:
                # Readers also poll, so a lost wake-up costs latency, not events. One
                # line a loss, not one a retry.
                if not lost:
                    _log.warning(
                        "notifier connection lost, reconnecting: %s",
                        (str(e).strip().splitlines() or [type(e).__name__])[0],
                    )
                lost = True
                self._pending.set()
                await asyncio.sleep(1.0)
