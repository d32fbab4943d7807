"""Live feeds: the events of one match or one competition, tailed from the log.

A server process holds one ``LiveHub``: one listening connection
(``store.listener.EventListener``) reads each wake-up's new settled events once and
the hub hands every feed the ones it follows. A feed never holds a connection of
its own: it streams its backlog in pages (from the pool, a connection per page)
until a page reaches the horizon, then joins the hub. Both reads return only
events below the snapshot's ``xmin``, so an event that commits late is delivered
late, never skipped; the feed resumes after any global position (the SSE
``Last-Event-ID``) and never repeats one.

While a match is live its events are redacted with
``domain.stream.public_event_data``; once it is over its whole record is public. A
round's first message also carries the engine's public view of the fresh deal
(what the table sees when the cards are dealt).
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from psycopg_pool import AsyncConnectionPool

from domain.events import Event, RecordedEvent
from domain.stream import MatchConfig, fold_stream, public_event_data, rules_for
from store.events import read_stream
from store.listener import EventListener, settled_head
from store.reads import match_openings, settled_events
from store.replicas import ReplayWatch

Authorise = Callable[[], Awaitable[bool]]
"""Whether the feed's caller may still read it (its token still active)."""


@dataclass(slots=True)
class _Match:
    config: MatchConfig
    competition_id: str | None
    finished: bool


class Inbox:
    """A feed's share of the hub's batches, bounded: past ``limit`` it overflows.

    An overflowing inbox (a client reading slower than the log grows) drops what it
    held and takes no more; its feed leaves the hub and pages from the table again.
    """

    __slots__ = ("_wake", "competition_id", "limit", "overflowed", "pending", "stream")

    def __init__(self, *, stream: str | None, competition_id: str | None, limit: int) -> None:
        self.stream = stream
        self.competition_id = competition_id
        self.limit = limit
        self.pending: list[RecordedEvent] = []
        self.overflowed = False
        self._wake = asyncio.Event()

    def push(self, events: list[RecordedEvent]) -> None:
        """Queue events (in global order) for the feed."""
        if self.overflowed:
            return
        if len(self.pending) + len(events) > self.limit:
            self.overflowed = True
            self.pending = []
        else:
            self.pending.extend(events)
        self._wake.set()

    async def take(self, timeout: float | None) -> list[RecordedEvent]:
        """Return what is queued, waiting up to ``timeout`` seconds for something."""
        if not self.pending and not self.overflowed:
            try:
                await asyncio.wait_for(self._wake.wait(), timeout)
            except TimeoutError:
                return []
        self._wake.clear()
        events, self.pending = self.pending, []
        return events


class LiveHub:
    """The feeds a process serves, fed from its one listening connection."""

    def __init__(
        self,
        pool: AsyncConnectionPool[Any],
        *,
        page_size: int = 200,
        readers: int = 4,
        routes_cached: int = 4096,
        views_cached: int = 64,
        frames_cached: int = 4096,
    ) -> None:
        self.pool = pool
        self.page_size = page_size
        # Feeds read their pages through at most ``readers`` pool connections at once,
        # so a crowd of feeds opening together leaves the rest of the pool to the API.
        self.reads = asyncio.Semaphore(readers)
        self.position = 0
        """The last global position handed to the feeds."""
        self._by_stream: dict[str, set[Inbox]] = {}
        self._by_competition: dict[str, set[Inbox]] = {}
        self._competitions: OrderedDict[str, str | None] = OrderedDict()
        self._routes_cached = routes_cached
        self._views: OrderedDict[tuple[str, int], asyncio.Future[dict[str, Any] | None]] = (
            OrderedDict()
        )
        self._views_cached = views_cached
        self._frames: OrderedDict[tuple[int, bool], bytes] = OrderedDict()
        self._frames_cached = frames_cached
        self._listener: EventListener | None = None
        # Set when the listener skipped a wake-up's read for want of feeds: ``position``
        # is then behind the log, and the next feed to join moves it to the head.
        self._behind = False

    @asynccontextmanager
    async def listening(
        self, conninfo: str, *, poll_interval: float = 1.0, replay: ReplayWatch | None = None
    ) -> AsyncIterator[None]:
        """Follow the log on one connection of its own for as long as the block runs.

        ``replay``: the hub's pool is a standby's; ``conninfo`` (the primary) is only
        listened on, and the new events are read from the standby once it has them.
        """
        listener = EventListener(
            conninfo,
            self.dispatch,
            batch_size=self.page_size,
            poll_interval=poll_interval,
            wanted=self._wanted,
            reads=self.pool,
            replay=replay,
        )
        async with listener:
            self.position = listener.position
            self._listener = listener
            try:
                yield
            finally:
                self._listener = None

    def _wanted(self) -> bool:
        if self._by_stream or self._by_competition:
            return True
        self._behind = True
        return False

    async def register(self, inbox: Inbox) -> int:
        """Start handing ``inbox`` every later event it wants; return the position it starts after.

        Events up to the returned position are settled: the feed reads those from the table.
        """
        if self._behind and self._listener is not None:
            # No feed wanted the events since ``position``: rather than the listener
            # reading them all now, the feed reads its own from the table up to the head.
            async with self.pool.connection() as conn:
                head = await settled_head(conn)
            # Another feed may have joined meanwhile; the listener then reads on for it.
            if self._behind:
                self._behind = False
                self.position = max(self.position, head)
                self._listener.skip_to(self.position)
        if inbox.stream is not None:
            self._by_stream.setdefault(inbox.stream, set()).add(inbox)
        else:
            assert inbox.competition_id is not None
            self._by_competition.setdefault(inbox.competition_id, set()).add(inbox)
        return self.position

    def unregister(self, inbox: Inbox) -> None:
        """Stop handing ``inbox`` events."""
        index, key = (
            (self._by_stream, inbox.stream)
            if inbox.stream is not None
            else (self._by_competition, inbox.competition_id)
        )
        assert key is not None
        inboxes = index.get(key)
        if inboxes is not None:
            inboxes.discard(inbox)
            if not inboxes:
                del index[key]

    async def dispatch(self, events: list[RecordedEvent]) -> None:
        """Hand a batch of new settled events (global order) to the feeds that follow them."""
        competitions: dict[str, str | None] = {}
        if self._by_competition:
            competitions = await self._competitions_of({e.stream for e in events})
        # From here to the position's update nothing awaits: a feed registers either
        # before this batch (and gets it) or after it (and reads it from the table).
        targets: dict[Inbox, list[RecordedEvent]] = {}
        for event in events:
            for inbox in self._by_stream.get(event.stream, ()):
                targets.setdefault(inbox, []).append(event)
            competition = competitions.get(event.stream)
            if competition is not None:
                for inbox in self._by_competition.get(competition, ()):
                    targets.setdefault(inbox, []).append(event)
        for inbox, wanted in targets.items():
            inbox.push(wanted)
        self.position = events[-1].global_position

    async def _competitions_of(self, streams: Iterable[str]) -> dict[str, str | None]:
        found: dict[str, str | None] = {}
        missing: list[str] = []
        for stream in streams:
            if stream in self._competitions:
                self._competitions.move_to_end(stream)
                found[stream] = self._competitions[stream]
            else:
                missing.append(stream)
        if missing:
            async with self.pool.connection() as conn:
                openings = await match_openings(conn, missing)
            for stream in missing:
                opening = openings.get(stream)
                found[stream] = self._competitions[stream] = None if opening is None else opening[0]
            while len(self._competitions) > self._routes_cached:
                self._competitions.popitem(last=False)
        return found

    async def message(
        self, event: RecordedEvent, config: MatchConfig, *, redacted: bool
    ) -> dict[str, Any]:
        """Return a feed's message for ``event`` (its data redacted for a live match)."""
        data = dict(event.data)
        if redacted:
            data = public_event_data(config, Event(event.type, event.data))
        message: dict[str, Any] = {
            "position": event.global_position,
            "stream": event.stream,
            "version": event.version,
            "type": event.type,
            "data": data,
            "recorded_at": event.recorded_at.isoformat(),
        }
        rules = rules_for(config.game)
        if event.type == rules.round_started:
            # The redacted set-up lacks what the table shows at once (Kozel's
            # indicator, the hand sizes): the engine's public view of the deal has it.
            position = rules.initial_position(event.data["setup"])
            message["view"] = rules.view(position, None)
        elif event.type == "TakenBack":
            # A viewer cannot undo moves itself: send the public view it goes back to.
            message["view"] = await self.view_at(event.stream, event.version)
        return message

    async def frame(self, event: RecordedEvent, config: MatchConfig, *, redacted: bool) -> bytes:
        """Return ``event``'s server-sent event, encoded once for every feed that sends it."""
        key = (event.global_position, redacted)
        frame = self._frames.get(key)
        if frame is not None:
            self._frames.move_to_end(key)
            return frame
        message = await self.message(event, config, redacted=redacted)
        frame = sse_frame(event.global_position, event.type, message)
        self._frames[key] = frame
        while len(self._frames) > self._frames_cached:
            self._frames.popitem(last=False)
        return frame

    async def view_at(self, stream: str, version: int) -> dict[str, Any] | None:
        """Return the public view of ``stream`` after ``version`` (folded once for all feeds)."""
        key = (stream, version)
        future = self._views.get(key)
        if future is None or (future.done() and future.exception() is not None):
            future = asyncio.ensure_future(self._fold_view(stream, version))
            self._views[key] = future
            while len(self._views) > self._views_cached:
                self._views.popitem(last=False)
        else:
            self._views.move_to_end(key)
        # Shielded: one feed's client leaving must not cancel the fold the others await.
        return await asyncio.shield(future)

    async def _fold_view(self, stream: str, version: int) -> dict[str, Any] | None:
        async with self.pool.connection() as conn:
            recorded = await read_stream(conn, stream, limit=version)
        state = fold_stream([(r.version, Event(r.type, r.data)) for r in recorded])
        if state.config is None or state.position is None:
            return None
        return rules_for(state.config.game).view(state.position, None)


class LiveFeed:
    """The events of one match (``stream``) or of one competition's matches.

    ``authorise``, when given, is asked before each delivery and, while the feed is
    idle, every ``check_interval`` seconds: once it answers ``False`` the feed ends.
    """

    def __init__(
        self,
        hub: LiveHub,
        *,
        stream: str | None = None,
        competition_id: str | None = None,
        authorise: Authorise | None = None,
        check_interval: float = 5.0,
    ) -> None:
        assert (stream is None) != (competition_id is None), "a match or a competition"
        self._hub = hub
        self._stream = stream
        self._competition = competition_id
        self._authorise = authorise
        self._check_interval = check_interval
        self._matches: dict[str, _Match | None] = {}

    async def _learn(self, streams: Iterable[str]) -> None:
        """Look up the matches of streams the feed has not met yet, in one query."""
        unknown = {s for s in streams if s not in self._matches}
        if not unknown:
            return
        async with self._hub.pool.connection() as conn:
            openings = await match_openings(conn, sorted(unknown))
        for stream in unknown:
            opening = openings.get(stream)
            if opening is None:
                self._matches[stream] = None
            else:
                competition, status, created = opening
                self._matches[stream] = _Match(
                    MatchConfig.from_data(created), competition, status != "live"
                )

    async def _admit(self, event: RecordedEvent) -> _Match | None:
        """Return the match of an event this feed sends (noting its end), else ``None``."""
        if self._stream is not None and event.stream != self._stream:
            return None
        await self._learn((event.stream,))
        match = self._matches[event.stream]
        if match is None:
            return None
        if self._competition is not None and match.competition_id != self._competition:
            return None
        return match

    async def message(self, event: RecordedEvent) -> dict[str, Any] | None:
        """Return the feed's message for ``event``, or ``None`` if it is not in this feed."""
        match = await self._admit(event)
        if match is None:
            return None
        redacted = not match.finished
        if event.type == "MatchEnded":
            match.finished = True
        return await self._hub.message(event, match.config, redacted=redacted)

    async def _frames(self, events: list[RecordedEvent]) -> bytes:
        await self._learn({e.stream for e in events})
        frames: list[bytes] = []
        for event in events:
            match = await self._admit(event)
            if match is None:
                continue
            redacted = not match.finished
            if event.type == "MatchEnded":
                match.finished = True
            frames.append(await self._hub.frame(event, match.config, redacted=redacted))
        return b"".join(frames)

    async def _authorised(self) -> bool:
        return self._authorise is None or await self._authorise()

    async def _page(self, after: int, until: int | None) -> tuple[int | None, int, bytes]:
        """Read and encode the next page: (its last position, its length, its frames)."""
        if until is not None and after >= until:
            return None, 0, b""
        # Encoding under the same bound as reading: with many feeds catching up at once,
        # only a few hold the event loop (and the pool) at a time, and requests go between.
        async with self._hub.reads:
            async with self._hub.pool.connection() as conn:
                page = await settled_events(
                    conn,
                    after_position=after,
                    until_position=until,
                    limit=self._hub.page_size,
                    stream=self._stream,
                    competition_id=self._competition,
                )
            if not page:
                return None, 0, b""
            return page[-1].global_position, len(page), await self._frames(page)

    async def batches(self, after: int = 0) -> AsyncIterator[bytes]:
        """Yield the server-sent events after ``after``, a page or a wake-up's worth at a time.

        Each message's ``id`` is its event's global position. Ends only when
        ``authorise`` answers ``False``.
        """
        last = after
        while True:
            inbox: Inbox | None = None
            until: int | None = None
            try:
                # The backlog, a page at a time, until a page reaches the horizon; then
                # join the hub and read what lies between this page and its position.
                while True:
                    end, length, batch = await self._page(last, until)
                    if end is not None:
                        if not await self._authorised():
                            return
                        last = end
                        if batch:
                            yield batch
                    if length == self._hub.page_size:
                        continue
                    if inbox is not None:
                        break
                    inbox = Inbox(
                        stream=self._stream,
                        competition_id=self._competition,
                        limit=4 * self._hub.page_size,
                    )
                    until = await self._hub.register(inbox)
                timeout = None if self._authorise is None else self._check_interval
                while not inbox.overflowed:
                    events = await inbox.take(timeout)
                    if (events or timeout is not None) and not await self._authorised():
                        return
                    events = [e for e in events if e.global_position > last]
                    if events:
                        last = events[-1].global_position
                        batch = await self._frames(events)
                        if batch:
                            yield batch
            finally:
                if inbox is not None:
                    self._hub.unregister(inbox)


def sse_frame(position: int, event_type: str, message: dict[str, Any]) -> bytes:
    """Return one server-sent event: ``id`` the global position, ``event`` the type."""
    data = json.dumps(message, separators=(",", ":"))
    return f"id: {position}\r\nevent: {event_type}\r\ndata: {data}\r\n\r\n".encode()


__all__ = ["Authorise", "Inbox", "LiveFeed", "LiveHub", "sse_frame"]
