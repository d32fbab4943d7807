"""The match summary read model: one row per match, updated in the recorder's transaction."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import psycopg
from psycopg.rows import dict_row

from domain.match import series_score
from domain.stream import MatchConfig
from domain.stream.outcome import result_of, status_of
from projections.rows import RowsInsert, RowsUpdate
from store.recorder import Projection


def match_id_of(stream: str) -> str:
    """Return the match id part of a match stream name (``<game>-<uuid>``)."""
    return stream.split("-", 1)[1]


def match_identity(stream: str, config: MatchConfig) -> tuple[Any, ...]:
    """Return the columns a match's read-model rows start with: id, stream, game,
    variant, competition and players."""
    return (
        match_id_of(stream),
        stream,
        config.game,
        config.variant,
        config.competition_id,
        list(config.players),
    )


MATCH_COLUMNS: Final = (
    ("id", "uuid"),
    ("stream", "text"),
    ("game", "text"),
    ("variant", "text"),
    ("competition_id", "uuid"),
    ("players", "uuid[]"),
    ("dealing", "text"),
    ("recording", "text"),
    ("created_at", "timestamptz"),
    ("version", "bigint"),
    ("status", "text"),
    ("rounds", "integer"),
    ("score", "jsonb"),
    ("result", "jsonb"),
    ("updated_at", "timestamptz"),
    ("ended_at", "timestamptz"),
)
"""The ``matches`` columns a new match's row fills, in row order, with their SQL types."""

_MATCHES: Final = RowsInsert("matches", MATCH_COLUMNS)
# A group commit's transaction moves many matches on: their rows change in one statement.
_SUMMARIES: Final = RowsUpdate("matches", MATCH_COLUMNS[1], MATCH_COLUMNS[-7:])


async def project_match_summary(
    conn: psycopg.AsyncConnection[Any], projections: Sequence[Projection]
) -> None:
    """Insert or update the ``matches`` row of each stream after its events.

    New matches (their ``MatchCreated`` among the events) are inserted by one
    statement, however many an import records at once.
    """
    created: list[tuple[Any, ...]] = []
    updated: list[tuple[Any, ...]] = []
    for projection in projections:
        stream, state, events = projection.stream, projection.state, projection.events
        if not events or state.config is None or state.series is None:
            continue
        last = events[-1]
        result = result_of(state)
        summary = (
            last.version,
            status_of(state),
            state.rounds_started,
            series_score(state.series),
            result,
            last.recorded_at,
            None if result is None else last.recorded_at,
        )
        started = next((e for e in events if e.type == "MatchCreated"), None)
        if started is None:
            updated.append((stream, *summary))
            continue
        config = state.config
        created.append(
            (
                *match_identity(stream, config),
                config.dealing,
                config.recording,
                started.recorded_at,
                *summary,
            )
        )
    await _MATCHES.execute(conn, created)
    await _SUMMARIES.execute(conn, updated)


async def find_match(conn: psycopg.AsyncConnection[Any], match_id: Any) -> dict[str, Any] | None:
    """Return the ``matches`` row of a match as a dict, or ``None`` if there is none.

    The row also says whether its competition's reads are public (``public_reads``;
    true for a match outside any competition) and the fixture it was made for
    (``fixture_id``, ``None`` for a match played outside any fixture; a void match whose
    table took a new one names it through the correction's record).
    """
    async with conn.cursor(row_factory=dict_row) as cur:
        await cur.execute(
            "SELECT m.*, coalesce(c.public_reads, true) AS public_reads,"
            " coalesce((SELECT f.id FROM fixtures f WHERE f.match_id = m.id),"
            " (SELECT (r.details->>'fixture_id')::uuid FROM competition_records r"
            " WHERE r.competition_id = m.competition_id AND r.kind = 'correction'"
            " AND r.details->>'void_match_id' = m.id::text)) AS fixture_id FROM matches m"
            " LEFT JOIN competitions c ON c.id = m.competition_id WHERE m.id = %s",
            (match_id,),
        )
        return await cur.fetchone()


async def list_matches(
    conn: psycopg.AsyncConnection[Any],
    *,
    limit: int,
    before: tuple[Any, str] | None = None,
    competition_id: Any = None,
    player_id: Any = None,
    game: str | None = None,
    variant: str | None = None,
    status: str | None = None,
    created_from: Any = None,
    created_to: Any = None,
    readable: Any = None,
    writable: Any = None,
) -> list[dict[str, Any]]:
    """Return up to ``limit + 1`` match rows, newest first, after the keyset ``before``.

    ``before`` is the ``(created_at, id)`` of the last row of the previous page;
    ``readable`` is ``None`` (every competition) or the ids of private competitions
    the caller may read besides the public ones; ``writable`` is ``None`` (no limit)
    or the only competitions whose matches are listed (a limited scorer's).
    """
    where = ["true"]
    params: list[Any] = []
    for column, value in (
        ("m.competition_id", competition_id),
        ("m.game", game),
        ("m.variant", variant),
        ("m.status", status),
    ):
        if value is not None:
            where.append(f"{column} = %s")
            params.append(value)
    if player_id is not None:
        where.append("%s = ANY (m.players)")
        params.append(player_id)
    if created_from is not None:
        where.append("m.created_at >= %s")
        params.append(created_from)
    if created_to is not None:
        where.append("m.created_at < %s")
        params.append(created_to)
    if before is not None:
        where.append("(m.created_at, m.id) < (%s, %s::uuid)")
        params.extend(before)
    if readable is not None:
        where.append("(m.competition_id IS NULL OR c.public_reads OR m.competition_id = ANY (%s))")
        params.append(list(readable))
    if writable is not None:
        where.append("m.competition_id = ANY (%s)")
        params.append(list(writable))
    params.append(limit + 1)
    sql = (
        "SELECT m.* FROM matches m LEFT JOIN competitions c ON c.id = m.competition_id"
        f" WHERE {' AND '.join(where)} ORDER BY m.created_at DESC, m.id DESC LIMIT %s"
    )
    async with conn.cursor(row_factory=dict_row) as cur:
        await cur.execute(sql, params)
        return await cur.fetchall()


SUMMARY_FIELDS: Final = (
    "id",
    "game",
    "variant",
    "competition_id",
    "players",
    "dealing",
    "recording",
    "status",
    "version",
    "rounds",
    "score",
    "result",
    "created_at",
    "updated_at",
    "ended_at",
)
"""A match's listing entry: these columns of its ``matches`` row, in this order."""


def match_summary(row: dict[str, Any]) -> dict[str, Any]:
    """Return the listing entry of a ``matches`` row (``GET /matches``, ``matchlog matches``)."""
    return {name: row[name] for name in SUMMARY_FIELDS}
