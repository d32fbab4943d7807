"""The server's replay tracks: per match stream and per worker, an LRU of ``Track``s.

A live match's track is extended with the events recorded since it was last read.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import psycopg

from domain.events import Event
from projections.replay import CORRECTIONS, Track
from store.events import read_stream


class ReplayCache:
    """Per-worker tracks of match streams, least recently used dropped first."""

    def __init__(self, *, every: int = 8, size: int = 256) -> None:
        self._every = every
        self._size = size
        self._tracks: OrderedDict[str, Track] = OrderedDict()

    async def track(
        self, conn: psycopg.AsyncConnection[Any], stream: str, version: int | None = None
    ) -> Track:
        """Return ``stream``'s track, reading only events it lacks.

        ``version`` is the stream's version as the caller knows it (from the match
        summary); when the track already holds it, nothing is read.
        """
        track = self._tracks.get(stream)
        if track is None:
            track = Track(self._every)
            self._tracks[stream] = track
        self._tracks.move_to_end(stream)
        while len(self._tracks) > self._size:
            self._tracks.popitem(last=False)
        if version is None or track.version < version:
            recorded = await read_stream(conn, stream, after_version=track.version)
            track.extend(
                [(r.version, Event(r.type, r.data)) for r in recorded],
                {r.version: r.metadata for r in recorded if r.type in CORRECTIONS},
            )
        return track


__all__ = ["ReplayCache"]
