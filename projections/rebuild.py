"""The inline projectors, and the rebuild that recomputes every read model from the log.

``INLINE_PROJECTORS`` is what the app hands the recorder: each runs in the
append's transaction, so a client reads its own write. ``rebuild`` truncates the
read tables and replays the whole events table through the same projectors, in
global order, in one transaction: the result is identical to what the recorder
wrote (tests/projections/test_rebuild.py proves it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import psycopg

from domain.events import Event, RecordedEvent
from domain.stream import effective_events, fold
from projections.matches import project_match_summary
from projections.series import project_series
from projections.standings import project_standings, recompute_standings
from store.events import read_all

INLINE_PROJECTORS = (project_match_summary, project_series, project_standings)
"""The projectors the recorder runs in its transaction, in this order."""

READ_TABLES = ("competition_standings", "match_series", "matches")
"""Every table a rebuild recomputes (dependants first)."""

Progress = Callable[[int, int], None]
"""Called with (events folded so far, events in the log)."""


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

    The read tables are locked first, so a recorder writing meanwhile waits for
    the rebuild to commit and then applies its own (whole-state) update.
    """
    async with conn.transaction():
        tables = ", ".join(READ_TABLES)
        await conn.execute(f"LOCK TABLE {tables} IN ACCESS EXCLUSIVE MODE")
        await conn.execute(f"TRUNCATE {tables}")
        cur = await conn.execute("SELECT count(*) FROM events")
        row = await cur.fetchone()
        total = int(row[0]) if row else 0
        streams: dict[str, list[RecordedEvent]] = {}
        done = 0
        position = 0
        while True:
            batch = await read_all(conn, after_position=position, limit=batch_size)
            if not batch:
                break
            for event in batch:
                streams.setdefault(event.stream, []).append(event)
            position = batch[-1].global_position
            if progress is not None:
                progress(done, total)
        competitions: set[str] = set()
        for stream, recorded in streams.items():
            by_version = {r.version: r for r in recorded}
            pairs = effective_events((r.version, Event(r.type, r.data)) for r in recorded)
            state = fold(event for _, event in pairs)
            kept = [by_version[version] for version, _ in pairs]
            await project_match_summary(conn, stream, state, kept)
            await project_series(conn, stream, state, kept)
            if state.config is not None and state.config.competition_id and state.is_over:
                competitions.add(state.config.competition_id)
            done += len(recorded)
            if progress is not None:
                progress(done, total)
        for competition_id in sorted(competitions):
            await recompute_standings(conn, competition_id)
    return RebuildStats(events=done, streams=len(streams), competitions=len(competitions))


__all__ = ["INLINE_PROJECTORS", "READ_TABLES", "RebuildStats", "rebuild"]
