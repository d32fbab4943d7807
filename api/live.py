"""``/matches/{id}/live`` and ``/competitions/{id}/live``: server-sent events.

Each message's ``id`` is the event's global position; a client that reconnects
with ``Last-Event-ID`` gets every later event once. Events of a live match are
redacted exactly as the public view is (``public_event_data``).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Annotated

from litestar import Controller, get
from litestar.di import NamedDependency
from litestar.params import HeaderParameter
from litestar.response import ServerSentEvent, ServerSentEventMessage
from psycopg_pool import AsyncConnectionPool

from api.auth import Principal, require_read
from api.competitions import CompetitionId
from api.matches import MatchId, readable_match
from api.openapi import TEXT, documented
from api.schemas import problem_responses
from domain.errors import MalformedError
from projections.live import LiveFeed
from store import accounts

LastEventId = Annotated[
    str | None,
    HeaderParameter(
        name="Last-Event-ID",
        description="Resume after this event (its global position, as the last message's id).",
    ),
]


def resume_after(last_event_id: str | None) -> int:
    """Read ``Last-Event-ID`` (a global position; absent: from the start).

    Raises:
        MalformedError (VALIDATION_FAILED): not a non-negative whole number.
    """
    if last_event_id is None or not last_event_id.strip():
        return 0
    text = last_event_id.strip()
    if not (text.isascii() and text.isdigit()):
        raise MalformedError(
            f"Last-Event-ID {last_event_id!r} is not an event position",
            code="VALIDATION_FAILED",
            details={"field": "Last-Event-ID", "source": "header"},
        )
    return int(text)


async def _stream(feed: LiveFeed, after: int) -> AsyncIterator[ServerSentEventMessage]:
    async for position, message in feed.messages(after):
        yield ServerSentEventMessage(
            data=json.dumps(message, separators=(",", ":")), event=message["type"], id=position
        )


class LiveController(Controller):
    """Live feeds of a match and of a competition."""

    tags = ("live",)

    @get(
        "/matches/{match_id:uuid}/live",
        operation_id="FollowMatch",
        operation_class=documented(media={"text/event-stream": TEXT}, replace=True),
        summary="Follow a match as server-sent events (hidden cards redacted while live)",
        responses=problem_responses(401, 403, 404, 422),
    )
    async def match_live(
        self,
        match_id: MatchId,
        principal: NamedDependency[Principal | None],
        pool: NamedDependency[AsyncConnectionPool],
        last_event_id: LastEventId = None,
    ) -> ServerSentEvent:
        """Stream the match's events from the start, or after ``Last-Event-ID``."""
        after = resume_after(last_event_id)
        row = await readable_match(pool, principal, match_id)
        return ServerSentEvent(_stream(LiveFeed(pool, stream=row["stream"]), after))

    @get(
        "/competitions/{competition_id:uuid}/live",
        operation_id="FollowCompetition",
        operation_class=documented(media={"text/event-stream": TEXT}, replace=True),
        summary="Follow every match of a competition as server-sent events",
        responses=problem_responses(401, 403, 404, 422),
    )
    async def competition_live(
        self,
        competition_id: CompetitionId,
        principal: NamedDependency[Principal | None],
        pool: NamedDependency[AsyncConnectionPool],
        last_event_id: LastEventId = None,
    ) -> ServerSentEvent:
        """Stream the events of the competition's matches, or after ``Last-Event-ID``."""
        after = resume_after(last_event_id)
        async with pool.connection() as conn:
            competition = await accounts.get_competition(conn, competition_id)
        require_read(principal, competition)
        feed = LiveFeed(pool, competition_id=str(competition_id))
        return ServerSentEvent(_stream(feed, after))


__all__ = ["LiveController", "resume_after"]
