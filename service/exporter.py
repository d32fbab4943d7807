"""Exporting recorded matches as logs: find their streams, build and write each log.

A live match's log holds its hidden cards: it goes only to a scorer who may record
the match (``exportable_match``); others are refused rather than sent a redacted log,
which would not import or compare as one.
"""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Collection, Iterable, Mapping
from datetime import datetime
from enum import StrEnum
from typing import Any, TextIO
from uuid import UUID

import psycopg
from psycopg_pool import AsyncConnectionPool

from domain.errors import ForbiddenError, MalformedError, NotFoundError, UnauthenticatedError
from domain.events import RecordedEvent
from domain.games import GAMES
from domain.logs import jsonl, text
from domain.logs.base import LogEvent, LogHeader, LogPlayer
from domain.stream import MatchConfig
from service.access import Principal, can_see_hidden, readable_match
from store.events import read_stream
from store.reads import (
    competition_name,
    created_streams,
    display_names,
    finished_matches,
    first_recorded,
)
from store.recorder import match_stream


class LogFormat(StrEnum):
    """The two log formats."""

    JSONL = "jsonl"
    TEXT = "text"


_PAGE = 100
"""Finished matches looked up per query while a listing's logs are written."""


async def find_stream(conn: psycopg.AsyncConnection[Any], match: str) -> str:
    """Return the stream of a match named by its id or its stream name.

    Raises:
        MalformedError (MALFORMED): not a match id or stream name.
        NotFoundError (MATCH_NOT_FOUND): no such match is recorded.
    """
    game, dash, rest = match.partition("-")
    match_id = rest if dash and game in GAMES else match
    try:
        UUID(match_id)
    except ValueError:
        raise MalformedError(f"{match!r} is not a match id (a UUID)") from None
    # A match's stream is named by its game: any game the registry holds.
    found = await first_recorded(conn, [match_stream(game, match_id) for game in GAMES])
    if found is None:
        raise NotFoundError(f"no match {match!r} is recorded", code="MATCH_NOT_FOUND")
    return found


async def exportable_match(
    pool: AsyncConnectionPool[Any], principal: Principal | None, match_id: UUID
) -> str:
    """Return the stream of a match whose log the caller may have.

    Raises:
        NotFoundError (MATCH_NOT_FOUND): there is no such match.
        UnauthenticatedError, ForbiddenError: its competition's reads are private, or
            the match is live and the caller may not record it.
    """
    row = await readable_match(pool, principal, match_id)
    if row["status"] == "live" and not can_see_hidden(principal, row["competition_id"]):
        message = "a live match's log holds its hidden cards: a scorer's token is needed"
        details = {"match_id": str(match_id)}
        if principal is None:
            raise UnauthenticatedError(message, details={**details, "reason": "missing_token"})
        raise ForbiddenError(message, details=details)
    return str(row["stream"])


async def match_streams(
    conn: psycopg.AsyncConnection[Any], *, competition: str | None
) -> AsyncIterator[str]:
    """Yield every match stream (of one competition), oldest first."""
    if competition is not None:
        try:
            UUID(competition)
        except ValueError:
            raise MalformedError(f"{competition!r} is not a competition id (a UUID)") from None
    async for stream in created_streams(conn, competition_id=competition):
        yield stream


async def logged_match(
    conn: psycopg.AsyncConnection[Any], stream: str
) -> tuple[LogHeader, list[LogEvent]]:
    """Return a recorded match as a log header and logged events."""
    recorded = await read_stream(conn, stream)
    config = MatchConfig.from_data(recorded[0].data)
    names = await display_names(conn, [p for p in config.players if is_uuid(p)])
    competition = config.competition_id
    named = None
    if competition is not None and is_uuid(competition):
        named = await competition_name(conn, competition)
    events = [_logged(e) for e in recorded]
    ended = events[-1].recorded_at if recorded[-1].type == "MatchEnded" else None
    header = LogHeader(
        match_id=stream.split("-", 1)[1],
        game=config.game,
        variant=config.variant,
        players=tuple(
            LogPlayer(seat, pid, names.get(pid, pid)) for seat, pid in enumerate(config.players)
        ),
        first_dealer=config.first_dealer,
        dealing=config.dealing,
        format=config.format,
        options=dict(config.options),
        rules_version=config.rules_version,
        first_dealer_drawn=config.first_dealer_drawn,
        recording=config.recording,
        competition_id=config.competition_id,
        competition_name=named,
        created_at=events[0].recorded_at,
        ended_at=ended,
        events=len(events),
    )
    return header, events


def _logged(event: RecordedEvent) -> LogEvent:
    return LogEvent(
        0,
        event.version,
        event.type,
        event.data,
        str(event.event_id),
        jsonl.format_time(event.recorded_at),
        exported_metadata(event.metadata),
    )


def exported_metadata(metadata: Mapping[str, Any]) -> dict[str, Any]:
    """Return an event's metadata as a log carries it: without the token that recorded it.

    A log goes to whoever may read the match (an anonymous reader of a public one, too),
    and a token id means nothing in another database. An import keeps what it is
    given, so export, import and export again give the same bytes.

    >>> exported_metadata({'role': 'scorer', 'token_id': '0b5e...'})
    {'role': 'scorer'}
    """
    return {k: v for k, v in metadata.items() if k != "token_id"}


def is_uuid(value: str) -> bool:
    """Whether ``value`` reads as a UUID."""
    try:
        UUID(value)
    except ValueError:
        return False
    return True


def match_text(header: LogHeader, events: list[LogEvent], fmt: LogFormat) -> str:
    """Return one match in ``fmt``, newline-terminated."""
    if fmt is LogFormat.TEXT:
        return text.write_match(header, events)
    return "\n".join([jsonl.header_line(header), *map(jsonl.event_line, events)]) + "\n"


async def log_chunks(
    conn: psycopg.AsyncConnection[Any], streams: AsyncIterable[str], fmt: LogFormat
) -> AsyncIterator[str]:
    """Yield the logs of ``streams`` in ``fmt``, one match at a time.

    The chunks are what ``matchlog export`` writes (text logs apart by a blank line).
    ``streams`` may query ``conn`` between matches, never while a match is read.
    """
    first = True
    async for stream in streams:
        header, events = await logged_match(conn, stream)
        if fmt is LogFormat.TEXT and not first:
            yield "\n"
        yield match_text(header, events, fmt)
        first = False


async def finished_streams(
    conn: psycopg.AsyncConnection[Any],
    *,
    competition_id: UUID | None = None,
    player_id: UUID | None = None,
    readable: Collection[UUID] | None = None,
) -> AsyncIterator[str]:
    """Yield the streams of finished matches (of a competition, of a player), oldest first.

    ``readable`` is ``None`` (every competition) or the private competitions the caller
    may read besides public ones. Matches are looked up a page at a time, so ``conn``
    is free between them for ``log_chunks``.
    """
    after: tuple[datetime, UUID] | None = None
    while True:
        rows = await finished_matches(
            conn,
            competition_id=competition_id,
            player_id=player_id,
            readable=readable,
            after=after,
            limit=_PAGE,
        )
        for stream, _, _ in rows:
            yield stream
        if len(rows) < _PAGE:
            return
        after = (rows[-1][1], rows[-1][2])


async def _each(streams: Iterable[str]) -> AsyncIterator[str]:
    for stream in streams:
        yield stream


async def export_to(
    out: TextIO, url: str, *, match: str | None, competition: str | None, fmt: LogFormat
) -> int:
    """Write the chosen matches to ``out``; return how many were written."""
    async with await psycopg.AsyncConnection.connect(url) as conn:
        if match is not None:
            streams: list[str] = [await find_stream(conn, match)]
        else:
            streams = [s async for s in match_streams(conn, competition=competition)]
        async for chunk in log_chunks(conn, _each(streams), fmt):
            out.write(chunk)
    return len(streams)


def single_log(stream: str) -> AsyncIterator[str]:
    """Return ``stream`` alone as the stream source of ``log_chunks``."""
    return _each([stream])
