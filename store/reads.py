"""Named reads of the events table beyond one stream's and the log's (store/events.py).

What exports, imports, ``verify``, the rebuild and live feeds ask of the log, each
as one query, so every SQL read of ``events`` lives in store/; and the names and the
finished matches an export lists.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Collection, Sequence
from datetime import datetime
from typing import Any
from uuid import UUID

import psycopg

from domain.events import RecordedEvent
from store.events import EVENT_COLUMNS, recorded_event


async def count_events(conn: psycopg.AsyncConnection[Any]) -> int:
    """Return how many events the log holds."""
    cur = await conn.execute("SELECT count(*) FROM events")
    row = await cur.fetchone()
    return int(row[0]) if row else 0


async def first_recorded(conn: psycopg.AsyncConnection[Any], streams: Sequence[str]) -> str | None:
    """Return the one of ``streams`` that holds events, or ``None`` if none does."""
    cur = await conn.execute(
        "SELECT stream FROM events WHERE version = 1 AND stream = ANY(%s::text[])",
        (list(streams),),
    )
    row = await cur.fetchone()
    return None if row is None else str(row[0])


async def created_streams(
    conn: psycopg.AsyncConnection[Any], *, competition_id: str | None
) -> AsyncIterator[str]:
    """Yield every match stream (of one competition, if given), oldest first."""
    cur = conn.cursor()
    async for row in cur.stream(
        "SELECT stream FROM events WHERE version = 1 AND type = 'MatchCreated' "
        "AND (%(c)s::text IS NULL OR data->>'competition_id' = %(c)s) ORDER BY global_position",
        {"c": competition_id},
    ):
        yield str(row[0])


async def competition_openings(
    conn: psycopg.AsyncConnection[Any],
) -> list[tuple[str, dict[str, Any]]]:
    """Return (stream, ``MatchCreated`` data) of every match of a competition, by stream."""
    cur = await conn.execute(
        "SELECT stream, data FROM events WHERE version = 1 AND type = 'MatchCreated' "
        "AND data->>'competition_id' IS NOT NULL ORDER BY stream"
    )
    return [(str(stream), data) for stream, data in await cur.fetchall()]


async def stream_contents(
    conn: psycopg.AsyncConnection[Any], stream: str
) -> list[tuple[str, str, Any]]:
    """Return ``stream``'s events as (event id, type, data), oldest first.

    Only what comparing a log with a stream needs: no metadata, times or hashes.
    """
    cur = await conn.execute(
        "SELECT event_id::text, type, data FROM events WHERE stream = %s ORDER BY version",
        (stream,),
    )
    return await cur.fetchall()


async def events_of_types(
    conn: psycopg.AsyncConnection[Any],
    types: Sequence[str],
    *,
    after_position: int,
    limit: int,
) -> list[RecordedEvent]:
    """Return up to ``limit`` committed events of ``types`` after a position, in global order.

    Every committed event, not only those below the snapshot's xmin as a tailing
    reader takes them (a rebuild locks the read tables first). The types are spelled
    out in the query so it matches the partial index events_series_idx (0005).
    Metadata is not read: it comes back empty.
    """
    assert all(kind.isidentifier() for kind in types), "event types are plain names"
    cur = await conn.execute(
        "SELECT global_position, stream, version, event_id, type, data, recorded_at, hash"
        " FROM events WHERE type IN ("
        + ", ".join(f"'{kind}'" for kind in types)
        + ") AND global_position > %s ORDER BY global_position LIMIT %s",
        (after_position, limit),
    )
    return [
        RecordedEvent(pos, stream, version, event_id, kind, data, {}, recorded_at, digest.hex())
        for pos, stream, version, event_id, kind, data, recorded_at, digest in await cur.fetchall()
    ]


async def stream_heads(
    conn: psycopg.AsyncConnection[Any], streams: Sequence[str]
) -> dict[str, RecordedEvent]:
    """Return the last event of each of ``streams`` by stream, without its data or metadata."""
    cur = await conn.execute(
        "SELECT e.global_position, e.stream, e.version, e.event_id, e.type, e.recorded_at, e.hash"
        " FROM unnest(%s::text[]) AS s(stream) CROSS JOIN LATERAL (SELECT * FROM events"
        " WHERE events.stream = s.stream ORDER BY version DESC LIMIT 1) AS e",
        (list(streams),),
    )
    return {
        stream: RecordedEvent(pos, stream, version, event_id, kind, {}, {}, at, digest.hex())
        for pos, stream, version, event_id, kind, at, digest in await cur.fetchall()
    }


async def match_openings(
    conn: psycopg.AsyncConnection[Any], streams: Sequence[str]
) -> dict[str, tuple[str | None, str, dict[str, Any]]]:
    """Return each known match's competition id, status and ``MatchCreated`` data, by stream.

    Streams that are no match are left out.
    """
    cur = await conn.execute(
        "SELECT m.stream, m.competition_id::text, m.status, e.data FROM matches m"
        " JOIN events e ON e.stream = m.stream AND e.version = 1"
        " WHERE m.stream = ANY(%s::text[])",
        (list(streams),),
    )
    return {row[0]: (row[1], row[2], row[3]) for row in await cur.fetchall()}


async def settled_events(
    conn: psycopg.AsyncConnection[Any],
    *,
    after_position: int,
    limit: int,
    until_position: int | None = None,
    stream: str | None = None,
    competition_id: str | None = None,
) -> list[RecordedEvent]:
    """Return up to ``limit`` events of one stream or one competition after a position.

    In global order, at most ``until_position`` (inclusive) when given. ``read_all``'s
    horizon (below the snapshot's xmin) restricted to those streams: the result is a
    prefix of the log, so following it from its last position skips nothing that
    commits late, and a page shorter than ``limit`` reached the horizon.
    """
    arg: str | None
    if stream is not None:
        where, arg = "stream = %s", stream
    else:
        where = "stream IN (SELECT stream FROM matches WHERE competition_id = %s)"
        arg = competition_id
    cur = await conn.execute(
        f"SELECT {EVENT_COLUMNS} FROM events WHERE global_position > %s AND {where}"
        " AND global_position <= coalesce(%s::bigint, 9223372036854775807)"
        " AND tx_id < pg_snapshot_xmin(pg_current_snapshot()) ORDER BY global_position LIMIT %s",
        (after_position, arg, until_position, limit),
    )
    return [recorded_event(row) for row in await cur.fetchall()]


async def display_names(
    conn: psycopg.AsyncConnection[Any], player_ids: Sequence[str]
) -> dict[str, str]:
    """Return the display names of the players of ``player_ids`` (UUIDs) that exist, by id."""
    cur = await conn.execute(
        "SELECT id::text, display_name FROM players WHERE id = ANY(%s::uuid[])",
        (list(player_ids),),
    )
    return {row[0]: row[1] for row in await cur.fetchall()}


async def competition_name(conn: psycopg.AsyncConnection[Any], competition_id: str) -> str | None:
    """Return the name of the competition ``competition_id`` (a UUID), or ``None`` if none."""
    cur = await conn.execute("SELECT name FROM competitions WHERE id = %s::uuid", (competition_id,))
    row = await cur.fetchone()
    return None if row is None else str(row[0])


async def finished_matches(
    conn: psycopg.AsyncConnection[Any],
    *,
    competition_id: UUID | None,
    player_id: UUID | None,
    readable: Collection[UUID] | None,
    after: tuple[datetime, UUID] | None,
    limit: int,
) -> list[tuple[str, datetime, UUID]]:
    """Return (stream, created at, id) of up to ``limit`` finished matches after ``after``.

    Oldest first, of a competition and of a player when given. ``readable`` is ``None``
    (every competition) or the private competitions readable besides public ones.
    """
    cur = await conn.execute(
        "SELECT m.stream, m.created_at, m.id FROM matches m"
        " LEFT JOIN competitions c ON c.id = m.competition_id"
        " WHERE m.status = 'finished'"
        " AND (%(competition)s::uuid IS NULL OR m.competition_id = %(competition)s)"
        " AND (%(player)s::uuid IS NULL OR %(player)s = ANY (m.players))"
        " AND (%(everything)s OR m.competition_id IS NULL OR c.public_reads"
        "      OR m.competition_id = ANY (%(readable)s::uuid[]))"
        " AND (%(after_at)s::timestamptz IS NULL"
        "      OR (m.created_at, m.id) > (%(after_at)s, %(after_id)s::uuid))"
        " ORDER BY m.created_at, m.id LIMIT %(limit)s",
        {
            "competition": competition_id,
            "player": player_id,
            "everything": readable is None,
            "readable": list(readable or ()),
            "after_at": None if after is None else after[0],
            "after_id": None if after is None else after[1],
            "limit": limit,
        },
    )
    return [(str(stream), at, match_id) for stream, at, match_id in await cur.fetchall()]


__all__ = [
    "competition_name",
    "competition_openings",
    "count_events",
    "created_streams",
    "display_names",
    "events_of_types",
    "finished_matches",
    "first_recorded",
    "match_openings",
    "settled_events",
    "stream_contents",
    "stream_heads",
]
