"""Live feeds: the events of one match or one competition, tailed from the log.

A feed first catches up from the events table, then follows
``store.events.subscribe`` (LISTEN/NOTIFY, re-reading the table). Both reads
return only events below the snapshot's ``xmin``, so an event that commits late
is delivered late, never skipped; the feed resumes after any global position
(the SSE ``Last-Event-ID``) and never repeats one. While a match is live its
events are redacted with ``domain.stream.public_event_data``; once it is over
its whole record is public. A round's first message also carries the engine's
public view of the fresh deal (what the table sees when the cards are dealt).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg_pool import AsyncConnectionPool

from domain.events import Event, RecordedEvent
from domain.stream import MatchConfig, fold_stream, public_event_data, rules_for
from store.events import read_stream, subscribe
from store.reads import match_opening, settled_events


@dataclass(slots=True)
class _Match:
    config: MatchConfig
    competition_id: str | None
    finished: bool


class LiveFeed:
    """The events of one match (``stream``) or of one competition's matches."""

    def __init__(
        self,
        pool: AsyncConnectionPool[Any],
        *,
        stream: str | None = None,
        competition_id: str | None = None,
        poll_interval: float = 1.0,
    ) -> None:
        self._pool = pool
        self._stream = stream
        self._competition = competition_id
        self._poll = poll_interval
        self._matches: dict[str, _Match | None] = {}

    async def _match(self, stream: str) -> _Match | None:
        if stream in self._matches:
            return self._matches[stream]
        async with self._pool.connection() as conn:
            row = await match_opening(conn, stream)
        found = None
        if row is not None:
            config = MatchConfig.from_data(row[2])
            found = _Match(config, row[0], row[1] != "live")
        self._matches[stream] = found
        return found

    def _wanted_stream(self, stream: str) -> bool:
        return self._stream is None or stream == self._stream

    async def message(self, event: RecordedEvent) -> dict[str, Any] | None:
        """Return the feed's message for ``event``, or ``None`` if it is not in this feed."""
        if not self._wanted_stream(event.stream):
            return None
        match = await self._match(event.stream)
        if match is None:
            return None
        if self._competition is not None and match.competition_id != self._competition:
            return None
        data = dict(event.data)
        if not match.finished:
            data = public_event_data(match.config, Event(event.type, event.data))
        if event.type == "MatchEnded":
            match.finished = True
        message: dict[str, Any] = {
            "position": event.global_position,
            "stream": event.stream,
            "version": event.version,
            "type": event.type,
            "data": data,
            "recorded_at": event.recorded_at.isoformat(),
        }
        rules = rules_for(match.config.game)
        if event.type == rules.round_started:
            # The redacted set-up lacks what the table shows at once (Kozel's
            # indicator, the hand sizes): the engine's public view of the deal has it.
            position = rules.initial_position(event.data["setup"])
            message["view"] = rules.view(position, None)
        elif event.type == "TakenBack":
            # A viewer cannot undo moves itself: send the public view it goes back to.
            message["view"] = await self._view_at(event.stream, event.version)
        return message

    async def _view_at(self, stream: str, version: int) -> dict[str, Any] | None:
        async with self._pool.connection() as conn:
            recorded = await read_stream(conn, stream, limit=version)
        state = fold_stream([(r.version, Event(r.type, r.data)) for r in recorded])
        if state.config is None or state.position is None:
            return None
        return rules_for(state.config.game).view(state.position, None)

    async def _catch_up(
        self, conn: psycopg.AsyncConnection[Any], after: int
    ) -> list[RecordedEvent]:
        return await settled_events(
            conn, after_position=after, stream=self._stream, competition_id=self._competition
        )

    async def messages(self, after: int = 0) -> AsyncIterator[tuple[int, dict[str, Any]]]:
        """Yield (global position, message) for every event after ``after``, forever."""
        last = after
        async with self._pool.connection() as conn:
            backlog = await self._catch_up(conn, after)
        for event in backlog:
            message = await self.message(event)
            last = event.global_position
            if message is not None:
                yield last, message
        async for event in subscribe(self._pool, after_position=last, poll_interval=self._poll):
            if event.global_position <= last:
                continue
            last = event.global_position
            message = await self.message(event)
            if message is not None:
                yield last, message


__all__ = ["LiveFeed"]
