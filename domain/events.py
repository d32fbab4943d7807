"""Events: what deciders emit, and the envelope the store persists.

A decider returns ``Event`` values (a past-tense type and JSON-ready data). The
recorder gives each an id and metadata (``NewEvent``) and the store hands them back
as ``RecordedEvent`` with their place in the log. Nothing here does I/O: ids and
timestamps are made by the caller and arrive as data.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol
from uuid import UUID

JSONObject = dict[str, Any]
"""A JSON object as Python sees it: what event data and metadata are."""


@dataclass(frozen=True, slots=True)
class Event:
    """What a decider emits: a past-tense type name and JSON-ready data."""

    type: str
    data: Mapping[str, Any]


class EventLike(Protocol):
    """Anything with an event's type and data: an ``Event``, or a logged event as read."""

    @property
    def type(self) -> str:
        """The past-tense type name."""

    @property
    def data(self) -> Mapping[str, Any]:
        """The JSON-ready data."""


@dataclass(frozen=True, slots=True)
class NewEvent:
    """An event ready to append: the caller chose its id, so a retry is idempotent.

    ``recorded_at`` is normally left to the database's clock; a log import passes
    the time the log says the event was first recorded, so a re-export is lossless.
    """

    event_id: UUID
    type: str
    data: Mapping[str, Any]
    metadata: Mapping[str, Any] = field(default_factory=dict)
    recorded_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class RecordedEvent:
    """An event as stored: its global position, stream, version and hash-chain link.

    ``version`` counts from 1 within a stream (an empty stream is at version 0);
    ``global_position`` orders every event of every stream.
    """

    global_position: int
    stream: str
    version: int
    event_id: UUID
    type: str
    data: Mapping[str, Any]
    metadata: Mapping[str, Any]
    recorded_at: datetime
    hash: str


def stream_category(stream: str) -> str:
    """Return a stream name's category: the part before the first dash.

    >>> stream_category('cuttle-5a1c')
    'cuttle'
    """
    return stream.split("-", 1)[0]
