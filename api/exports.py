"""Game logs over HTTP: what ``matchlog export`` writes, for one match, a competition or a player.

Bodies are streamed a match at a time. The read rules are those of every other read:
a private competition's matches need a token that may read it, and a live match's log
(which holds its hidden cards) goes only to a scorer who may record it; others are
refused rather than sent a redacted log, which would not import or compare as one.
Competition and player exports hold finished matches only.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Annotated, Any

import psycopg
from litestar import Controller, Request, get
from litestar.di import NamedDependency
from litestar.openapi import ResponseSpec
from litestar.params import Parameter
from litestar.response import Stream
from psycopg_pool import AsyncConnectionPool

from api.auth import Principal
from api.competitions import CompetitionId
from api.matches import MatchId
from api.openapi import TEXT, documented
from api.players import PlayerId
from api.schemas import choice_schema, problem_responses, query_choice
from service import exporter
from service.access import readable_competition, readable_private, require_player
from service.exporter import LogFormat

_MEDIA = {LogFormat.JSONL: "application/x-ndjson", LogFormat.TEXT: "text/plain; charset=utf-8"}

_FORMATS = {f.value: f for f in LogFormat}
FormatParam = Annotated[
    str | None,
    Parameter(
        description="jsonl (the canonical log, the default) or text (the text notation); "
        "without it, `Accept: text/plain` asks for text.",
        schema_extra=choice_schema(_FORMATS),
    ),
]

_LOGS = ResponseSpec(
    data_container=str,
    media_type=_MEDIA[LogFormat.JSONL],
    description="The log: JSON Lines (as here), or `text/plain; charset=utf-8` for "
    "`format=text`; streamed a match at a time.",
)

# Both bodies the routes stream, so the schema (and schemathesis) know the text form too.
_LOG_MEDIA = documented(
    media={_MEDIA[LogFormat.JSONL]: TEXT, _MEDIA[LogFormat.TEXT]: TEXT}, replace=True
)

Streams = Callable[[psycopg.AsyncConnection[Any]], AsyncIterator[str]]


class ExportController(Controller):
    """Export game logs as JSON Lines or text notation."""

    tags = ("export",)

    @get(
        "/matches/{match_id:uuid}/export",
        operation_id="ExportMatch",
        operation_class=_LOG_MEDIA,
        summary="A match's log, exactly as `matchlog export` writes it (JSON Lines or text)",
        responses={200: _LOGS, **problem_responses(401, 403, 404, 422)},
    )
    async def export_match(
        self,
        request: Request[Any, Any, Any],
        match_id: MatchId,
        principal: NamedDependency[Principal | None],
        reads: NamedDependency[AsyncConnectionPool],
        format: FormatParam = None,
    ) -> Stream:
        """Return the match's log; a live one only to a scorer who may record it."""
        stream = await exporter.exportable_match(reads, principal, match_id)
        return _logs(request, reads, format, lambda _: exporter.single_log(stream))

    @get(
        "/competitions/{competition_id:uuid}/export",
        operation_id="ExportCompetition",
        operation_class=_LOG_MEDIA,
        summary="Every finished match of a competition, oldest first (JSON Lines or text)",
        responses={200: _LOGS, **problem_responses(401, 403, 404, 422)},
    )
    async def export_competition(
        self,
        request: Request[Any, Any, Any],
        competition_id: CompetitionId,
        principal: NamedDependency[Principal | None],
        reads: NamedDependency[AsyncConnectionPool],
        format: FormatParam = None,
    ) -> Stream:
        """Return the logs of the competition's finished matches, streamed."""
        await readable_competition(reads, principal, competition_id)
        return _logs(
            request,
            reads,
            format,
            lambda conn: exporter.finished_streams(conn, competition_id=competition_id),
        )

    @get(
        "/players/{player_id:uuid}/export",
        operation_id="ExportPlayer",
        operation_class=_LOG_MEDIA,
        summary="Every finished match a player sat in that the caller may read, oldest first",
        responses={200: _LOGS, **problem_responses(401, 404, 422)},
    )
    async def export_player(
        self,
        request: Request[Any, Any, Any],
        player_id: PlayerId,
        principal: NamedDependency[Principal | None],
        reads: NamedDependency[AsyncConnectionPool],
        format: FormatParam = None,
    ) -> Stream:
        """Return the logs of the player's finished matches; private competitions need rights."""
        await require_player(reads, player_id)
        readable = readable_private(principal)
        return _logs(
            request,
            reads,
            format,
            lambda conn: exporter.finished_streams(conn, player_id=player_id, readable=readable),
        )


def _logs(
    request: Request[Any, Any, Any],
    pool: AsyncConnectionPool,
    format: str | None,
    streams: Streams,
) -> Stream:
    """Stream the logs of ``streams`` in the asked format, on a connection of their own."""
    fmt = query_choice("format", format, _FORMATS) or _from_accept(
        request.headers.get("accept", "")
    )

    async def body() -> AsyncIterator[bytes]:
        async with pool.connection() as conn:
            async for chunk in exporter.log_chunks(conn, streams(conn), fmt):
                yield chunk.encode("utf-8")

    return Stream(body(), media_type=_MEDIA[fmt])


def _from_accept(accept: str) -> LogFormat:
    # JSON Lines wins when both are named: it is the lossless one.
    if "text/plain" in accept and "application/x-ndjson" not in accept:
        return LogFormat.TEXT
    return LogFormat.JSONL


__all__ = ["ExportController"]
