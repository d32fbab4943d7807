"""``/matches``: create a match, start rounds, record moves, read it back.

Every write goes through the recorder (one transaction: events, inline projections,
the idempotent answer). A write is checked in this order: the token
(``api.auth.authorize``), the body's shape, the version the client last saw
(``If-Match`` or ``expected_version``), then the rules engine's codes. Until a match
is over, readers without a scorer's rights on it see only what the table could see.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any
from uuid import UUID

from litestar import Controller, Request, Response, get, post
from litestar.di import NamedDependency, Provide
from litestar.params import JSONBody, Parameter
from psycopg_pool import AsyncConnectionPool

from api.auth import WRITE_CHECKS_TOKEN, Principal, requires
from api.match_schemas import (
    EventOut,
    EventPage,
    LegalMovesOut,
    MatchIn,
    MatchOut,
    MatchPage,
    MatchSummaryOut,
    MovesIn,
    NoteIn,
    RecordedOut,
    ResignIn,
    RoundIn,
    TakebackIn,
    VoidIn,
)
from api.match_writes import (
    IdempotencyKey,
    IfMatch,
    MatchKey,
    MatchKeys,
    Writer,
    etag,
    match_out,
    provide_writer,
    recorded_out,
)
from api.openapi import documented
from api.problems import validation_failed
from api.schemas import (
    choice_schema,
    instant_parameter,
    link_to_next,
    parse_instant,
    problem_responses,
    query_choice,
    query_uuid,
    sent_as,
)
from domain.stream import (
    AddNote,
    ResignMatch,
    StartRound,
    TakeBack,
    VoidMatch,
)
from projections.matches import list_matches
from service import matches
from service.access import (
    Role,
    readable_match,
    readable_private,
    require_role,
)
from service.i18n import translations
from service.legal_moves import legal_moves
from service.matches import Recorder

MatchId = Annotated[UUID, Parameter(title="Match id", description="The match's UUID.")]
_UUID = sent_as(None, format="uuid")
_STATUSES = {status: status for status in ("live", "finished", "void")}
_EXAMPLE_DECK = " ".join(rank + suit for suit in "CDHS" for rank in "A23456789TJQK")
_WRITE_ERRORS = problem_responses(400, 401, 403, 404, 409, 412, 413, 422, 428)


class MatchController(Controller):
    """Create matches, record their rounds and moves, and read them back."""

    path = "/matches"
    tags = ("matches",)
    dependencies = {"writer": Provide(provide_writer)}  # noqa: RUF012 (Litestar's own form)

    # -- writes -------------------------------------------------------------------------

    @post(
        operation_id="CreateMatch",
        operation_class=documented(
            example={
                "game": "cuttle",
                "variant": "standard",
                "format": "normal",
                "players": [
                    "6f1c2a3e-0d7e-4b8a-9c55-1e2f3a4b5c6d",
                    "9b0e7d6c-5a4b-4c3d-8e2f-1a0b9c8d7e6f",
                ],
                "dealing": "server",
            }
        ),
        summary="Create a match (scorer or admin token)",
        status_code=201,
        responses=_WRITE_ERRORS,
        security=[{"bearer": []}],
        opt={**requires(Role.SCORER), WRITE_CHECKS_TOKEN: True},
    )
    async def create_match(
        self,
        data: JSONBody[MatchIn],
        writer: NamedDependency[Writer],
        idempotency_key: IdempotencyKey = None,
    ) -> Response[MatchOut]:
        """Record ``MatchCreated`` (and, when the server deals, the first round's deal)."""
        return await writer.create(data, idempotency_key)

    @post(
        "/{match_id:uuid}/moves",
        operation_id="RecordMoves",
        operation_class=documented(example={"moves": ["P1 points 7H"], "expected_version": 2}),
        summary="Record one move or a batch, all or nothing (scorer token)",
        status_code=200,
        responses=_WRITE_ERRORS,
        security=[{"bearer": []}],
        opt={**requires(Role.SCORER), WRITE_CHECKS_TOKEN: True},
    )
    async def record_moves(
        self,
        match_id: MatchId,
        data: JSONBody[MovesIn],
        writer: NamedDependency[Writer],
        if_match: IfMatch = None,
        idempotency_key: IdempotencyKey = None,
    ) -> Response[RecordedOut]:
        """Check every move with the rules engine and record them with their derived events."""
        return await writer.record(
            match_id,
            lambda key: matches.move_commands(key.game, data.seat, data.moves),
            data.expected_version,
            if_match,
            idempotency_key,
        )

    @post(
        "/{match_id:uuid}/rounds",
        operation_id="StartRound",
        operation_class=documented(
            example={
                "deck": _EXAMPLE_DECK,
                "expected_version": 1,
            }
        ),
        summary="Start the next round or deal from a given deck or dealt hands (scorer token)",
        status_code=201,
        responses=_WRITE_ERRORS,
        security=[{"bearer": []}],
        opt={**requires(Role.SCORER), WRITE_CHECKS_TOKEN: True},
    )
    async def start_round(
        self,
        match_id: MatchId,
        data: JSONBody[RoundIn],
        writer: NamedDependency[Writer],
        if_match: IfMatch = None,
        idempotency_key: IdempotencyKey = None,
    ) -> Response[RecordedOut]:
        """Open a scorer-dealt round: the deck order (top first), or a physical deal's hands."""
        return await writer.record(
            match_id,
            lambda _: [StartRound(data.deal())],
            data.expected_version,
            if_match,
            idempotency_key,
            status_code=201,
        )

    @post(
        "/{match_id:uuid}/resign",
        operation_id="ResignMatch",
        operation_class=documented(example={"seat": 0, "expected_version": 9}),
        summary="Resign a whole 2-player Cuttle match, or concede a Kozel one (scorer token)",
        status_code=200,
        responses=_WRITE_ERRORS,
        security=[{"bearer": []}],
        opt={**requires(Role.SCORER), WRITE_CHECKS_TOKEN: True},
    )
    async def resign_match(
        self,
        match_id: MatchId,
        data: JSONBody[ResignIn],
        writer: NamedDependency[Writer],
        if_match: IfMatch = None,
        idempotency_key: IdempotencyKey = None,
    ) -> Response[RecordedOut]:
        """End the match: the resigning seat's opponent wins (a round is resigned as a move)."""
        return await writer.record(
            match_id,
            lambda _: [ResignMatch(data.seat)],
            data.expected_version,
            if_match,
            idempotency_key,
        )

    @post(
        "/{match_id:uuid}/takeback",
        operation_id="TakeBack",
        operation_class=documented(
            example={"to_version": 5, "reason": "the wrong card was entered", "expected_version": 7}
        ),
        summary="Go back to an earlier version of the current round (scorer token)",
        status_code=200,
        responses=_WRITE_ERRORS,
        security=[{"bearer": []}],
        opt={**requires(Role.SCORER), WRITE_CHECKS_TOKEN: True},
    )
    async def take_back(
        self,
        match_id: MatchId,
        data: JSONBody[TakebackIn],
        writer: NamedDependency[Writer],
        if_match: IfMatch = None,
        idempotency_key: IdempotencyKey = None,
    ) -> Response[RecordedOut]:
        """Record ``TakenBack``: the match is again exactly as it was at ``to_version``.

        Reaches the current round, or the round just ended while the next has no
        move; never behind a match's end (``MATCH_OVER``).
        """
        return await writer.record(
            match_id,
            lambda _: [TakeBack(data.to_version, data.reason)],
            data.expected_version,
            if_match,
            idempotency_key,
        )

    @post(
        "/{match_id:uuid}/void",
        operation_id="VoidMatch",
        operation_class=documented(
            example={"reason": "played with a short deck", "expected_version": 40}
        ),
        summary="Void a finished match: it stays in the log and counts nowhere (admin token)",
        status_code=200,
        responses=_WRITE_ERRORS,
        security=[{"bearer": []}],
        opt={**requires(Role.ADMIN), WRITE_CHECKS_TOKEN: True},
    )
    async def void_match(
        self,
        match_id: MatchId,
        data: JSONBody[VoidIn],
        writer: NamedDependency[Writer],
        if_match: IfMatch = None,
        idempotency_key: IdempotencyKey = None,
    ) -> Response[RecordedOut]:
        """Record ``MatchVoided`` on a finished match (``VOID_NOT_FINISHED`` otherwise)."""
        return await writer.record(
            match_id,
            lambda _: [VoidMatch(data.reason)],
            data.expected_version,
            if_match,
            idempotency_key,
        )

    @post(
        "/{match_id:uuid}/notes",
        operation_id="AddNote",
        operation_class=documented(
            example={
                "version": 5,
                "text": "ruling: the eight is played as glasses",
                "expected_version": 7,
            }
        ),
        summary="Attach a short note to a recorded move (scorer token; finished matches too)",
        status_code=201,
        responses=_WRITE_ERRORS,
        security=[{"bearer": []}],
        opt={**requires(Role.SCORER), WRITE_CHECKS_TOKEN: True},
    )
    async def add_note(
        self,
        match_id: MatchId,
        data: JSONBody[NoteIn],
        writer: NamedDependency[Writer],
        if_match: IfMatch = None,
        idempotency_key: IdempotencyKey = None,
    ) -> Response[RecordedOut]:
        """Record ``NoteAdded`` on the event at ``version`` (braces are refused: NOTE_INVALID)."""
        return await writer.record(
            match_id,
            lambda _: [AddNote(data.version, data.text)],
            data.expected_version,
            if_match,
            idempotency_key,
            status_code=201,
        )

    # -- reads --------------------------------------------------------------------------

    @get(
        operation_id="ListMatches",
        summary="Find matches, newest first, by competition, player, game, status or date",
        responses=problem_responses(401, 422),
    )
    async def list_matches(
        self,
        request: Request[Any, Any, Any],
        principal: NamedDependency[Principal | None],
        reads: NamedDependency[AsyncConnectionPool],
        competition_id: Annotated[
            str | None,
            Parameter(description="Only this competition.", schema_extra=_UUID),
        ] = None,
        player_id: Annotated[
            str | None,
            Parameter(description="Only matches this player sat in.", schema_extra=_UUID),
        ] = None,
        game: Annotated[
            str | None, Parameter(description="cuttle or kozel.", schema_extra=sent_as())
        ] = None,
        variant: Annotated[
            str | None, Parameter(description="e.g. standard.", schema_extra=sent_as())
        ] = None,
        status: Annotated[
            str | None,
            Parameter(description="live, finished or void.", schema_extra=choice_schema(_STATUSES)),
        ] = None,
        created_from: Annotated[
            str | None, instant_parameter("Created at or after (RFC 3339 date-time).")
        ] = None,
        created_to: Annotated[
            str | None, instant_parameter("Created before (RFC 3339 date-time).")
        ] = None,
        limit: Annotated[int, Parameter(ge=1, le=100, description="Page size (1-100).")] = 50,
        cursor: Annotated[
            str | None,
            Parameter(
                description="From the previous page.", schema_extra=sent_as(MATCH_CURSOR_PATTERN)
            ),
        ] = None,
        writable: Annotated[
            bool,
            Parameter(
                description="true: only matches the caller's token may record (its"
                " competitions); needs a token."
            ),
        ] = False,
    ) -> Response[MatchPage]:
        """List the matches the caller may read; follow ``next_cursor`` or ``Link: rel="next"``.

        Raises:
            UnauthenticatedError (UNAUTHENTICATED): ``writable=true`` without a token.
        """
        readable = readable_private(principal)
        # Every token may record (admin or scorer); a limited one only in its competitions.
        scope = require_role(principal, Role.SCORER).competitions if writable else None
        async with reads.connection() as conn:
            rows = await list_matches(
                conn,
                limit=limit,
                before=decode_match_cursor(cursor),
                competition_id=query_uuid("competition_id", competition_id),
                player_id=query_uuid("player_id", player_id),
                game=game,
                variant=variant,
                status=query_choice("status", status, _STATUSES),
                created_from=parse_instant(created_from, "created_from"),
                created_to=parse_instant(created_to, "created_to"),
                readable=readable,
                writable=scope,
            )
        more = len(rows) > limit
        rows = rows[:limit]
        next_cursor = encode_match_cursor(rows[-1]) if more else None
        headers = {} if next_cursor is None else link_to_next(request, next_cursor)
        page = MatchPage(items=[MatchSummaryOut.from_row(r) for r in rows], next_cursor=next_cursor)
        return Response(page, headers=headers)

    @get(
        "/{match_id:uuid}",
        operation_id="GetMatch",
        summary="Read a match: summary, series score and the public view of the round",
        responses=problem_responses(401, 403, 404),
    )
    async def get_match(
        self,
        match_id: MatchId,
        principal: NamedDependency[Principal | None],
        reads: NamedDependency[AsyncConnectionPool],
        recorder: NamedDependency[Recorder],
    ) -> Response[MatchOut]:
        """Return the match with its version as the ETag."""
        row = await readable_match(reads, principal, match_id)
        state, version = await matches.match_state(reads, recorder, row["stream"])
        body = match_out(match_id, state, version, row["fixture_id"])
        return Response(body, headers={"ETag": etag(version)})

    @get(
        "/{match_id:uuid}/legal-moves",
        operation_id="GetLegalMoves",
        summary="The legal moves of the seat(s) to act, and service moves (scorer token if live)",
        responses=problem_responses(401, 403, 404),
    )
    async def legal_moves(
        self,
        match_id: MatchId,
        principal: NamedDependency[Principal | None],
        reads: NamedDependency[AsyncConnectionPool],
        recorder: NamedDependency[Recorder],
        lang: NamedDependency[str],
    ) -> Response[LegalMovesOut]:
        """List legal moves, sentences in the request's language; they reveal hands, so a
        live match needs a scorer's token."""
        words = translations(lang, "moves")
        listed = await legal_moves(reads, recorder, principal, match_id, words)
        body = LegalMovesOut.model_validate(listed.data())
        return Response(body, headers={"ETag": etag(listed.version)})

    @get(
        "/{match_id:uuid}/events",
        operation_id="ListMatchEvents",
        summary="The match's raw event stream, oldest first (hidden cards redacted while live)",
        responses=problem_responses(401, 403, 404, 422),
    )
    async def list_events(
        self,
        request: Request[Any, Any, Any],
        match_id: MatchId,
        principal: NamedDependency[Principal | None],
        reads: NamedDependency[AsyncConnectionPool],
        after: Annotated[int, Parameter(ge=0, description="Return events after this version.")] = 0,
        limit: Annotated[int, Parameter(ge=1, le=1000, description="Most events (1-1000).")] = 200,
    ) -> Response[EventPage]:
        """Page through the stream with ``?after=``; ``Link: rel="next"`` names the next page."""
        events = await matches.readable_events(
            reads, principal, match_id, after=after, limit=limit + 1
        )
        more = len(events) > limit
        events = events[:limit]
        items = [EventOut.from_recorded(e.event, e.data) for e in events]
        next_after = events[-1].event.version if more and events else None
        headers = {}
        if next_after is not None:
            url = request.url.with_replacements(query=f"after={next_after}&limit={limit}")
            headers["Link"] = f'<{url}>; rel="next"'
        return Response(EventPage(items=items, next_after=next_after), headers=headers)


MATCH_CURSOR_PATTERN = r"^[0-9]{1,17}-[0-9a-f]{32}$"
"""A match listing's cursor: the last match's creation (microseconds since 1970, UTC)
and id; any text of this form is a place in the listing (the schema's pattern)."""
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)


def encode_match_cursor(row: dict[str, Any]) -> str:
    """The cursor of the page after ``row``, the last match of this one."""
    return f"{(row['created_at'] - _EPOCH) // _MICROSECOND}-{UUID(str(row['id'])).hex}"


def decode_match_cursor(cursor: str | None) -> tuple[datetime, str] | None:
    """The ``(created_at, id)`` keyset a match cursor names; 422 for a text not a cursor."""
    if cursor is None:
        return None
    if re.fullmatch(MATCH_CURSOR_PATTERN, cursor) is None:
        raise validation_failed("cursor", f"{cursor!r} is not a cursor from this API", "query")
    micros, match_id = cursor.split("-")
    return _EPOCH + int(micros) * _MICROSECOND, str(UUID(match_id))


__all__ = [
    "MATCH_CURSOR_PATTERN",
    "MatchController",
    "MatchId",
    "MatchKey",
    "MatchKeys",
    "etag",
    "match_out",
    "recorded_out",
]
