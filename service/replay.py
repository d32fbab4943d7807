"""Replaying a recorded match ply by ply, as the replay projection follows it.

Ply N is the match after its first N moves, counted over the raw stream as the
API's replays count them (projections/replay.py): a move a takeback undid keeps
its ply, and stepping over the takeback shows the match as it was at the version
it names, so every position is one the table saw.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import psycopg

from domain.events import Event
from domain.stream import MatchState, move_text
from projections.replay import Track
from projections.replay_cache import ReplayCache
from service.exporter import find_stream


@dataclass(frozen=True, slots=True)
class Ply:
    """The match after a number of moves: its state, the position shown, the last move.

    ``move`` is the last move's notation, ``event`` the event that recorded it (for
    its sentence, ``GameRules.describe_step``).
    """

    number: int
    state: MatchState
    position: Any
    move: str | None
    event: Event | None = None


def track_plies(track: Track) -> list[Ply]:
    """Return ply 0 (before the first move) to the last ply of a match's track."""
    out = []
    for number in range(len(track.plies) + 1):
        frame = track.frame_after(number)
        move, event = None, None
        if number:
            assert track.config is not None
            event = track.events[track.plies[number - 1]][1]
            move = move_text(track.config, event)
        out.append(Ply(number, frame.state, frame.shown, move, event))
    return out


def plies(events: Iterable[Event]) -> list[Ply]:
    """Return the plies of a match's raw events (versions 1, 2, ... in order)."""
    track = Track(every=1)
    track.extend(list(enumerate(events, start=1)))
    return track_plies(track)


async def match_plies(conn: psycopg.AsyncConnection[Any], match: str) -> list[Ply]:
    """Return the plies of a recorded match named by its id or stream name.

    Raises:
        MalformedError (MALFORMED): not a match id or stream name.
        NotFoundError (MATCH_NOT_FOUND): no such match is recorded.
    """
    stream = await find_stream(conn, match)
    # A snapshot before every ply: each ply then folds only its own events.
    return track_plies(await ReplayCache(every=1, size=1).track(conn, stream))


__all__ = ["Ply", "match_plies", "plies", "track_plies"]
