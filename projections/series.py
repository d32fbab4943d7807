"""The series read model: every scored round of a match with running totals, and the result.

Everything in a row is computed from the match state after the events (which the
recorder and the rebuild both fold from effective events), so writing it again
from a rebuilt state gives the same row. ``ended_position`` is the global
position of ``MatchEnded``: standings and ratings take matches in that order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import psycopg
from psycopg.rows import dict_row

from domain.match import series_score
from domain.stream import MatchState
from domain.stream.outcome import result_with_resignation
from projections.matches import match_identity
from projections.rows import RowsInsert
from store.recorder import Projection

SERIES_EVENTS = (
    "MatchCreated",
    "RoundStarted",
    "DealStarted",
    "RoundScored",
    "DealScored",
    "MatchResigned",
    "MatchEnded",
    "TakenBack",
    "MatchVoided",
    "NoteAdded",
)
"""The event types that change a match's read models; other events leave them as they are."""


def rounds_of(state: MatchState) -> list[dict[str, Any]]:
    """Return the scored rounds (Cuttle) or deals (Kozel) of a match state."""
    if state.series is None:
        return []
    return state.rules.rounds_data(state.series)


_SERIES: Final = RowsInsert(
    "match_series",
    [
        ("match_id", "uuid"),
        ("stream", "text"),
        ("game", "text"),
        ("variant", "text"),
        ("competition_id", "uuid"),
        ("players", "uuid[]"),
        ("rounds", "jsonb"),
        ("totals", "jsonb"),
        ("result", "jsonb"),
        ("ended_position", "bigint"),
    ],
    " ON CONFLICT (match_id) DO UPDATE SET rounds = EXCLUDED.rounds,"
    " totals = EXCLUDED.totals, result = EXCLUDED.result,"
    " ended_position = coalesce(EXCLUDED.ended_position, match_series.ended_position)",
)


async def project_series(
    conn: psycopg.AsyncConnection[Any], projections: Sequence[Projection]
) -> None:
    """Insert or update the ``match_series`` row of each stream after its events (one statement)."""
    rows: list[tuple[Any, ...]] = []
    for projection in projections:
        stream, state, events = projection.stream, projection.state, projection.events
        if state.config is None or state.series is None:
            continue
        if not any(e.type in SERIES_EVENTS for e in events):
            continue  # a plain move: the series row would be written back unchanged
        config = state.config
        ended = next((e.global_position for e in events if e.type == "MatchEnded"), None)
        result = result_with_resignation(state)
        rows.append(
            (
                *match_identity(stream, config),
                rounds_of(state),
                series_score(state.series),
                result,
                ended,
            )
        )
    await _SERIES.execute(conn, rows)


async def find_series(conn: psycopg.AsyncConnection[Any], match_id: Any) -> dict[str, Any] | None:
    """Return the ``match_series`` row of a match as a dict, or ``None``."""
    async with conn.cursor(row_factory=dict_row) as cur:
        await cur.execute("SELECT * FROM match_series WHERE match_id = %s", (match_id,))
        return await cur.fetchone()


__all__ = ["find_series", "project_series", "rounds_of"]
