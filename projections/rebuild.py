"""The inline projectors, and the rebuild that recomputes every read model from the log.

``INLINE_PROJECTORS`` is what the app hands the recorder: each runs in the
append's transaction, so a client reads its own write. ``rebuild`` truncates the
read tables and recomputes them from the events table through the same
projectors, in one transaction: the result is identical to what the recorder
wrote (tests/projections/test_read_models.py proves it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import psycopg

from domain.events import Event, RecordedEvent
from domain.stream import effective_events, fold
from projections.matches import project_match_summary
from projections.series import SERIES_EVENTS, project_series
from projections.standings import project_standings, recompute_standings
from store.reads import count_events, events_of_types, stream_heads
from store.recorder import Projection

INLINE_PROJECTORS = (project_match_summary, project_series, project_standings)
"""The projectors the recorder runs in its transaction, in this order."""

READ_TABLES = ("competition_standings", "match_series", "matches")
"""Every table a rebuild recomputes (dependants first)."""

# SERIES_EVENTS (projections.series) are the events that change what the read models
# hold: the rules, the series, the result. Engine events only move the cards of the
# round in play, which no stored read model shows (replays fold them on demand from
# the stream), so a rebuild reads these events in global order plus each stream's
# head (its version and time) and neither decodes nor folds the rest. The test that
# compares every read model with its rebuild guards this. ``TakenBack`` is among them
# so ``effective_events`` drops the versions it undoes from the same pairs
# (truncation by version holds for a subset); ``MatchVoided`` sets the status;
# ``NoteAdded``, which may follow ``MatchEnded``, keeps a finished match's summary
# version equal to its stream's head without reading heads of every stream.

Progress = Callable[[int, int], None]
"""Called with (events read so far, events in the log)."""


@dataclass(frozen=True, slots=True)
class RebuildStats:
    """What a rebuild did."""

    events: int
    streams: int
    competitions: int


async def rebuild(
    conn: psycopg.AsyncConnection[Any],
    *,
    batch_size: int = 5000,
    progress: Progress | None = None,
) -> RebuildStats:
    """Truncate every read model and recompute it from the events table, in one transaction.

    The read tables are locked first: the lock waits for appends that already wrote
    their projections to commit, and makes later ones wait for the rebuild, after
    which they apply their own (whole-state) updates. Appends outside the recorder
    (which write no projections) should not run meanwhile.
    """
    async with conn.transaction():
        tables = ", ".join(READ_TABLES)
        await conn.execute(f"LOCK TABLE {tables} IN ACCESS EXCLUSIVE MODE")
        await conn.execute(f"TRUNCATE {tables}")
        total = await count_events(conn)
        streams: dict[str, list[RecordedEvent]] = {}
        done = position = 0
        while True:
            # Every committed event: once the read tables are locked, each appender has
            # either committed with its projections (which the rebuild replaces, so its
            # events must be read) or waits on the lock, uncommitted, and projects
            # itself after the rebuild.
            read = await events_of_types(
                conn, SERIES_EVENTS, after_position=position, limit=batch_size
            )
            for event in read:
                streams.setdefault(event.stream, []).append(event)
            if len(read) < batch_size:
                break
            position = read[-1].global_position
        playing = [name for name, events in streams.items() if events[-1].type != "MatchEnded"]
        # The head of each stream in play: the summary records its version and time.
        heads = await stream_heads(conn, playing)
        competitions: set[str] = set()
        chunk: list[Projection] = []
        # Pipelined: the projectors' writes go out without waiting for each answer.
        async with conn.pipeline():
            for stream, recorded in streams.items():
                head = heads.get(stream, recorded[-1])
                if recorded[-1].version != head.version:
                    recorded.append(head)
                by_version = {r.version: r for r in recorded}
                pairs = effective_events((r.version, Event(r.type, r.data)) for r in recorded)
                state = fold(event for _, event in pairs if event.type in SERIES_EVENTS)
                kept = [by_version[version] for version, _ in pairs]
                if kept[-1].version != head.version:
                    # The head is a takeback (dropped from the pairs): the summary
                    # still records the stream's version and time.
                    kept.append(head)
                chunk.append(Projection(stream, state, kept))
                if len(chunk) == _CHUNK:
                    await _project(conn, chunk)
                if state.config is not None and state.config.competition_id and state.is_over:
                    competitions.add(state.config.competition_id)
                done += head.version
                if progress is not None:
                    progress(done, total)
            await _project(conn, chunk)
        # A competition whose only results are forfeited tables has standings too.
        cur = await conn.execute(
            "SELECT DISTINCT competition_id::text FROM fixtures WHERE forfeited_by IS NOT NULL"
        )
        competitions.update(row[0] for row in await cur.fetchall())
        for competition_id in sorted(competitions):
            await recompute_standings(conn, competition_id)
    return RebuildStats(events=done, streams=len(streams), competitions=len(competitions))


_CHUNK = 256
"""Streams whose rows the rebuild writes with one statement per read table."""


async def _project(conn: psycopg.AsyncConnection[Any], chunk: list[Projection]) -> None:
    """Write the summary and series rows of ``chunk``'s streams; empty the chunk."""
    await project_match_summary(conn, chunk)
    await project_series(conn, chunk)
    chunk.clear()


__all__ = ["INLINE_PROJECTORS", "READ_TABLES", "SERIES_EVENTS", "RebuildStats", "rebuild"]
