"""``/matches``: create a match, start rounds, record moves, read it back.

Every write goes through the recorder (one transaction: events, inline projections,
the idempotent answer). A write is checked in this order: the token
(``api.auth.authorize``), the body's shape, the version the client last saw
(``If-Match`` or ``expected_version``), then the rules engine's codes. Until a match
is over, readers without a scorer's rights on it see only what the table could see.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any, NamedTuple
from uuid import UUID, uuid4

from litestar import Controller, Request, Response, get, post
from litestar.di import NamedDependency, Provide
from litestar.params import HeaderParameter, JSONBody, Parameter
from psycopg_pool import AsyncConnectionPool

from api.auth import (
    WRITE_CHECKS_TOKEN,
    KnownTokens,
    Principal,
    authenticate,
    readable_private,
    require_read_of,
    require_role,
    require_scope,
    requires,
)
from api.idempotency import (
    KEY_PATTERN,
    MAX_KEY_LENGTH,
    Answer,
    IdempotentRequest,
    Render,
    StoredAnswer,
    record_once,
)
from api.lru import Lru
from api.match_schemas import (
    ChoiceOut,
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
    RoundOut,
    TakebackIn,
    VoidIn,
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
from domain.errors import (
    ConflictError,
    ForbiddenError,
    NotFoundError,
    PreconditionFailedError,
    PreconditionRequiredError,
    UnauthenticatedError,
)
from domain.events import Event, RecordedEvent
from domain.match import series_score
from domain.stream import (
    AddNote,
    Choice,
    Command,
    MatchConfig,
    MatchState,
    ResignMatch,
    StartRound,
    TakeBack,
    VoidMatch,
    choices,
    public_event_data,
    result_choices,
    rules_for,
)
from projections.matches import find_match, list_matches, result_of, status_of
from projections.reports import player_names
from service import matches
from service.matches import MatchSetup, Write
from store.accounts import Role
from store.events import VersionConflictError, read_stream
from store.idempotency import OnceKey
from store.recorder import Recorded, Recorder

IF_MATCH_PATTERN = r'^\s*(W/)?"?[0-9]+"?\s*$'
"""The ``If-Match`` forms ``parse_if_match`` reads: ``"12"``, ``W/"12"``, ``12``."""
MatchId = Annotated[UUID, Parameter(title="Match id", description="The match's UUID.")]
IfMatch = Annotated[
    str | None,
    HeaderParameter(
        name="If-Match",
        description='The version the client last saw, as the ETag GET returned (e.g. "12").',
        pattern=IF_MATCH_PATTERN,
        schema_extra=sent_as(IF_MATCH_PATTERN),
    ),
]
IdempotencyKey = Annotated[
    str | None,
    HeaderParameter(
        name="Idempotency-Key",
        description="Retrying with the same key returns the first answer and records nothing.",
        schema_extra=sent_as(KEY_PATTERN, max_length=MAX_KEY_LENGTH),
    ),
]
_UUID = sent_as(None, format="uuid")
_STATUSES = {status: status for status in ("live", "finished", "void")}
_EXAMPLE_DECK = " ".join(rank + suit for suit in "CDHS" for rank in "A23456789TJQK")
_WRITE_ERRORS = problem_responses(400, 401, 403, 404, 409, 412, 413, 422, 428)


def etag(version: int) -> str:
    """Return the ETag of a match at ``version``."""
    return f'"{version}"'


def parse_if_match(value: str) -> int:
    """Read a version from an ``If-Match`` value (``"12"``, ``W/"12"`` or ``12``).

    Raises:
        MalformedError (VALIDATION_FAILED): not a version ETag.
    """
    text = value.strip().removeprefix("W/").strip('"')
    if not (text.isascii() and text.isdigit()):
        raise validation_failed(
            "If-Match", f'{value!r} is not a version ETag such as "12"', "header"
        )
    return int(text)


def can_see_hidden(principal: Principal | None, competition_id: UUID | None) -> bool:
    """Whether the caller may see hidden cards of a live match (a scorer who may record it)."""
    return (
        principal is not None
        and principal.has_role(Role.SCORER)
        and principal.may_act_on(competition_id)
    )


def match_out(match_id: UUID, state: MatchState, version: int) -> MatchOut:
    """Return the body of a match: its summary and the public view of the round in play."""
    config = state.config
    assert config is not None and state.series is not None
    rules = rules_for(config.game)
    round_out = None
    if state.position is not None:
        round_out = RoundOut(
            number=state.rounds_started,
            to_act=list(rules.public_to_act(state.position)),
            cards_awaited=rules.cards_awaited(state.position),
            view=rules.view(state.position, None),
        )
    return MatchOut(
        id=match_id,
        game=config.game,
        variant=config.variant,
        rules_version=config.rules_version,
        format=config.format,
        options=dict(config.options),
        players=[UUID(p) for p in config.players],
        first_dealer=config.first_dealer,
        first_dealer_drawn=config.first_dealer_drawn,
        dealing=config.dealing,
        recording=config.recording,
        competition_id=None if config.competition_id is None else UUID(config.competition_id),
        status=status_of(state),  # type: ignore[arg-type]
        version=version,
        score=series_score(state.series),
        result=result_of(state),
        rounds_started=state.rounds_started,
        dealer=state.series.dealer,
        round=round_out,
    )


def recorded_out(match_id: UUID, recorded: Recorded) -> RecordedOut:
    """Return the answer to a write: the version, every event recorded, and the match."""
    return RecordedOut(
        version=recorded.version,
        events=[EventOut.from_recorded(e) for e in recorded.events],
        match=match_out(match_id, recorded.state, recorded.version),
    )


@dataclass(frozen=True, slots=True)
class MatchKey:
    """What a write needs of a match before it records: none of it ever changes."""

    stream: str
    game: str
    competition_id: UUID | None


class MatchKeys(Lru[UUID, MatchKey]):
    """This process's memory of matches' keys, so a write reads no ``matches`` row.

    A match's stream, game and competition are fixed when it is created; whatever
    else a write depends on (its status, its version) it checks against the stream
    itself, in the recorder's transaction.
    """

    def __init__(self, size: int = 4096) -> None:
        super().__init__(size)


async def existing_match(pool: AsyncConnectionPool, match_id: UUID) -> dict[str, Any]:
    """Return a match's ``matches`` row, whoever asks.

    Raises:
        NotFoundError (MATCH_NOT_FOUND): there is no such match.
    """
    async with pool.connection() as conn:
        row = await find_match(conn, match_id)
    if row is None:
        raise NotFoundError(
            f"there is no match {str(match_id)!r}",
            code="MATCH_NOT_FOUND",
            details={"match_id": str(match_id)},
        )
    return row


async def readable_match(
    pool: AsyncConnectionPool, principal: Principal | None, match_id: UUID
) -> dict[str, Any]:
    """Return a match's ``matches`` row if the caller may read it.

    Raises:
        NotFoundError (MATCH_NOT_FOUND): there is no such match.
        UnauthenticatedError, ForbiddenError: its competition's reads are private.
    """
    row = await existing_match(pool, match_id)
    if row["competition_id"] is not None:
        require_read_of(principal, row["competition_id"], public_reads=row["public_reads"])
    return row


class Writer(NamedTuple):
    """What a match write works with: who writes, the pool, the recorder."""

    principal: Principal
    pool: AsyncConnectionPool
    recorder: Recorder


async def provide_writer(request: Request[Any, Any, Any]) -> Writer:
    """Dependency ``writer`` of the match writes (``authorize`` made sure of a principal).

    One dependency where three would do: Litestar resolves several dependencies of a
    handler in an anyio task group, a task each, which took 9% of a worker's CPU at
    32 live matches (py-spy; the figures with and without are in docs/benchmarks.md).
    """
    principal = await authenticate(request)
    assert principal is not None, "a write's guard requires a principal"
    return Writer(principal, request.app.state.pool, request.app.state.recorder)


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
        request: Request[Any, Any, Any],
        data: JSONBody[MatchIn],
        writer: NamedDependency[Writer],
        idempotency_key: IdempotencyKey = None,
    ) -> Response[MatchOut]:
        """Record ``MatchCreated`` (and, when the server deals, the first round's deal)."""
        principal, pool, recorder = writer
        competition_id = data.competition_id
        if data.fixture_id is not None:
            competition_id = await matches.fixture_competition(
                pool, data.fixture_id, data.competition_id
            )
        require_scope(principal, competition_id)
        idem = await self._idempotent(request, principal, idempotency_key)
        match_id = data.id or uuid4()
        setup = MatchSetup(
            game=data.game,
            players=data.players,
            variant=data.variant,
            format=data.format,
            options=data.options,
            first_dealer=data.first_dealer,
            dealing=data.dealing,
            recording=data.recording,
            competition_id=competition_id,
            fixture_id=data.fixture_id,
        )

        answer = Answer(lambda r: match_out(match_id, r.state, r.version))

        async def create(once: OnceKey | None) -> Recorded:
            return await matches.create_match(
                pool,
                recorder,
                setup,
                match_id=match_id,
                metadata=_metadata(principal),
                once=once,
                token_id=principal.token_id,
            )

        try:
            recorded = await self._recording(
                request,
                principal,
                idem,
                pool,
                201,
                answer.render,
                create,
            )
        except VersionConflictError:
            # The id is taken. Say no more: the match may be one the caller cannot read.
            raise ConflictError(
                f"a match with id {str(match_id)!r} already exists",
                code="ALREADY_EXISTS",
                details={"id": str(match_id)},
            ) from None
        if isinstance(recorded, StoredAnswer):
            return _answer(recorded.status_code, recorded.body)
        return Response(
            answer.content(recorded),
            status_code=201,
            headers={"ETag": etag(recorded.version), "Location": f"/matches/{match_id}"},
        )

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
        request: Request[Any, Any, Any],
        match_id: MatchId,
        data: JSONBody[MovesIn],
        writer: NamedDependency[Writer],
        if_match: IfMatch = None,
        idempotency_key: IdempotencyKey = None,
    ) -> Response[RecordedOut]:
        """Check every move with the rules engine and record them with their derived events."""
        principal, pool, recorder = writer
        key = await self._writable(request, pool, principal, match_id)
        commands = matches.move_commands(key.game, data.seat, data.moves)
        return await self._write(
            request,
            match_id,
            key,
            commands,
            data.expected_version,
            if_match,
            idempotency_key,
            principal,
            pool,
            recorder,
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
        request: Request[Any, Any, Any],
        match_id: MatchId,
        data: JSONBody[RoundIn],
        writer: NamedDependency[Writer],
        if_match: IfMatch = None,
        idempotency_key: IdempotencyKey = None,
    ) -> Response[RecordedOut]:
        """Open a scorer-dealt round: the deck order (top first), or a physical deal's hands."""
        principal, pool, recorder = writer
        key = await self._writable(request, pool, principal, match_id)
        return await self._write(
            request,
            match_id,
            key,
            [StartRound(data.deal())],
            data.expected_version,
            if_match,
            idempotency_key,
            principal,
            pool,
            recorder,
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
        request: Request[Any, Any, Any],
        match_id: MatchId,
        data: JSONBody[ResignIn],
        writer: NamedDependency[Writer],
        if_match: IfMatch = None,
        idempotency_key: IdempotencyKey = None,
    ) -> Response[RecordedOut]:
        """End the match: the resigning seat's opponent wins (a round is resigned as a move)."""
        principal, pool, recorder = writer
        key = await self._writable(request, pool, principal, match_id)
        return await self._write(
            request,
            match_id,
            key,
            [ResignMatch(data.seat)],
            data.expected_version,
            if_match,
            idempotency_key,
            principal,
            pool,
            recorder,
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
        request: Request[Any, Any, Any],
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
        principal, pool, recorder = writer
        key = await self._writable(request, pool, principal, match_id)
        return await self._write(
            request,
            match_id,
            key,
            [TakeBack(data.to_version, data.reason)],
            data.expected_version,
            if_match,
            idempotency_key,
            principal,
            pool,
            recorder,
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
        request: Request[Any, Any, Any],
        match_id: MatchId,
        data: JSONBody[VoidIn],
        writer: NamedDependency[Writer],
        if_match: IfMatch = None,
        idempotency_key: IdempotencyKey = None,
    ) -> Response[RecordedOut]:
        """Record ``MatchVoided`` on a finished match (``VOID_NOT_FINISHED`` otherwise)."""
        principal, pool, recorder = writer
        key = await self._writable(request, pool, principal, match_id)
        return await self._write(
            request,
            match_id,
            key,
            [VoidMatch(data.reason)],
            data.expected_version,
            if_match,
            idempotency_key,
            principal,
            pool,
            recorder,
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
        request: Request[Any, Any, Any],
        match_id: MatchId,
        data: JSONBody[NoteIn],
        writer: NamedDependency[Writer],
        if_match: IfMatch = None,
        idempotency_key: IdempotencyKey = None,
    ) -> Response[RecordedOut]:
        """Record ``NoteAdded`` on the event at ``version`` (braces are refused: NOTE_INVALID)."""
        principal, pool, recorder = writer
        key = await self._writable(request, pool, principal, match_id)
        return await self._write(
            request,
            match_id,
            key,
            [AddNote(data.version, data.text)],
            data.expected_version,
            if_match,
            idempotency_key,
            principal,
            pool,
            recorder,
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
        pool: NamedDependency[AsyncConnectionPool],
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
        async with pool.connection() as conn:
            rows = await list_matches(
                conn,
                limit=limit,
                before=_decode_match_cursor(cursor),
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
        next_cursor = _encode_match_cursor(rows[-1]) if more else None
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
        pool: NamedDependency[AsyncConnectionPool],
        recorder: NamedDependency[Recorder],
    ) -> Response[MatchOut]:
        """Return the match with its version as the ETag."""
        row = await readable_match(pool, principal, match_id)
        async with pool.connection() as conn:
            state, version = await recorder.load(conn, row["stream"])
        return Response(match_out(match_id, state, version), headers={"ETag": etag(version)})

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
        pool: NamedDependency[AsyncConnectionPool],
        recorder: NamedDependency[Recorder],
    ) -> Response[LegalMovesOut]:
        """List legal moves; they reveal hands, so a live match needs a scorer's token."""
        row = await readable_match(pool, principal, match_id)
        if row["status"] == "live" and not can_see_hidden(principal, row["competition_id"]):
            raise ForbiddenError(
                "legal moves reveal hands: a scorer's token for this match is needed",
                details={"match_id": str(match_id)},
            )
        async with pool.connection() as conn:
            state, version = await recorder.load(conn, row["stream"])
            names = await player_names(conn, [str(p) for p in row["players"]])
        moves: list[str] = []
        listed: list[Choice] = []
        service: list[Choice] = []
        to_act: list[int] = []
        nameable: list[str] = []
        name_last: str | None = None
        awaited = 0
        if state.config is not None and not state.is_over:
            if state.config.recording == "results":
                # A score sheet takes results only: no moves, no concessions (§27, R48).
                listed = result_choices(state, names)
                moves = [c.move for c in listed]
            else:
                service = choices(state, state.rules.service_moves(state.position), names)
        if state.position is not None and not state.is_over:
            rules = state.rules
            to_act = list(rules.to_act(state.position))
            ask = rules.cards_to_name(state.position)
            if ask is not None:
                # Namings are never listed (63,960 orderings after a Cuttle five, 20!/4!
                # in a Kozel deal): a pad names them from ``nameable`` (#29).
                awaited = ask.count
                nameable = [c.text() for c in ask.candidates]
                name_last = None if ask.last is None else ask.last.text()
            else:
                listed = choices(state, rules.legal_moves(state.position), names)
                moves = [c.move for c in listed]
        body = LegalMovesOut(
            version=version,
            to_act=to_act,
            cards_awaited=awaited,
            nameable=nameable,
            name_last=name_last,
            moves=moves,
            service_moves=[c.move for c in service],
            choices=[ChoiceOut.from_choice(c) for c in listed],
            service_choices=[ChoiceOut.from_choice(c) for c in service],
        )
        return Response(body, headers={"ETag": etag(version)})

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
        pool: NamedDependency[AsyncConnectionPool],
        after: Annotated[int, Parameter(ge=0, description="Return events after this version.")] = 0,
        limit: Annotated[int, Parameter(ge=1, le=1000, description="Most events (1-1000).")] = 200,
    ) -> Response[EventPage]:
        """Page through the stream with ``?after=``; ``Link: rel="next"`` names the next page."""
        row = await readable_match(pool, principal, match_id)
        async with pool.connection() as conn:
            events = await read_stream(conn, row["stream"], after_version=after, limit=limit + 1)
        more = len(events) > limit
        events = events[:limit]
        rights = can_see_hidden(principal, row["competition_id"])
        redact = row["status"] == "live" and not rights
        config = await self._config_of(pool, row) if redact else None
        items = [_event_out(e, config, show_tokens=rights) for e in events]
        next_after = events[-1].version if more and events else None
        headers = {}
        if next_after is not None:
            url = request.url.with_replacements(query=f"after={next_after}&limit={limit}")
            headers["Link"] = f'<{url}>; rel="next"'
        return Response(EventPage(items=items, next_after=next_after), headers=headers)

    # -- helpers ------------------------------------------------------------------------

    async def _write(
        self,
        request: Request[Any, Any, Any],
        match_id: UUID,
        key: MatchKey,
        commands: list[Command],
        expected_version: int | None,
        if_match: str | None,
        idempotency_key: str | None,
        principal: Principal,
        pool: AsyncConnectionPool,
        recorder: Recorder,
        status_code: int = 200,
    ) -> Response[Any]:
        idem = await self._idempotent(request, principal, idempotency_key)

        answer = Answer(lambda r: recorded_out(match_id, r))

        async def write(once: OnceKey | None) -> Recorded:
            # Checked in the write: a retry refused for want of a version gets its answer.
            expected = _expected_version(if_match, expected_version)
            write = Write(key.stream, expected, _metadata(principal), once, principal.token_id)
            return await matches.record(recorder, write, commands)

        try:
            recorded = await self._recording(
                request,
                principal,
                idem,
                pool,
                status_code,
                answer.render,
                write,
            )
        except VersionConflictError as e:
            if if_match is not None:
                raise PreconditionFailedError(e.message, details=e.details) from None
            raise
        if isinstance(recorded, StoredAnswer):
            return _answer(recorded.status_code, recorded.body)
        return Response(
            answer.content(recorded),
            status_code=status_code,
            headers={"ETag": etag(recorded.version)},
        )

    @staticmethod
    async def _idempotent(
        request: Request[Any, Any, Any], principal: Principal, key: str | None
    ) -> IdempotentRequest | None:
        if key is None:
            return None
        body = await request.body()
        return IdempotentRequest.from_request(
            principal, key, request.method, request.url.path, body
        )

    @staticmethod
    async def _recording(
        request: Request[Any, Any, Any],
        principal: Principal,
        idem: IdempotentRequest | None,
        pool: AsyncConnectionPool,
        status_code: int,
        render: Render,
        write: Callable[[OnceKey | None], Awaitable[Recorded]],
    ) -> Recorded | StoredAnswer:
        """``record_once``, forgetting the token if the write's transaction refused it."""
        try:
            return await record_once(idem, pool, status_code, render, write)
        except UnauthenticatedError:
            tokens: KnownTokens = request.app.state.tokens
            tokens.forget(principal.token_id)
            raise

    @staticmethod
    async def _writable(
        request: Request[Any, Any, Any],
        pool: AsyncConnectionPool,
        principal: Principal,
        match_id: UUID,
    ) -> MatchKey:
        keys: MatchKeys = request.app.state.match_keys
        key = keys.get(match_id)
        if key is None:
            row = await readable_match(pool, principal, match_id)
            key = MatchKey(row["stream"], row["game"], row["competition_id"])
            keys.put(match_id, key)
        # A writer passes require_read_of whenever it passes this.
        require_scope(principal, key.competition_id)
        return key

    @staticmethod
    async def _config_of(pool: AsyncConnectionPool, row: dict[str, Any]) -> MatchConfig:
        async with pool.connection() as conn:
            first = await read_stream(conn, row["stream"], limit=1)
        return MatchConfig.from_data(first[0].data)


MATCH_CURSOR_PATTERN = r"^[0-9]{1,17}-[0-9a-f]{32}$"
"""A match listing's cursor: the last match's creation (microseconds since 1970, UTC)
and id; any text of this form is a place in the listing (the schema's pattern)."""
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)


def _encode_match_cursor(row: dict[str, Any]) -> str:
    return f"{(row['created_at'] - _EPOCH) // _MICROSECOND}-{UUID(str(row['id'])).hex}"


def _decode_match_cursor(cursor: str | None) -> tuple[datetime, str] | None:
    if cursor is None:
        return None
    if re.fullmatch(MATCH_CURSOR_PATTERN, cursor) is None:
        raise validation_failed("cursor", f"{cursor!r} is not a cursor from this API", "query")
    micros, match_id = cursor.split("-")
    return _EPOCH + int(micros) * _MICROSECOND, str(UUID(match_id))


def _expected_version(if_match: str | None, field: int | None) -> int:
    if if_match is not None:
        return parse_if_match(if_match)
    if field is not None:
        return field
    raise PreconditionRequiredError(
        "say which version you last saw: send If-Match (the ETag) or expected_version",
        details={"field": "If-Match"},
    )


def _metadata(principal: Principal) -> dict[str, Any]:
    return {"token_id": str(principal.token_id), "role": principal.role.value}


def _event_out(event: RecordedEvent, config: MatchConfig | None, *, show_tokens: bool) -> EventOut:
    if config is None:
        out = EventOut.from_recorded(event)
        if show_tokens or "token_id" not in out.metadata:
            return out
        # Which token recorded an event is not a card, but a reader without rights on
        # the match has no need of it.
        metadata = {k: v for k, v in out.metadata.items() if k != "token_id"}
        return out.model_copy(update={"metadata": metadata})
    data = public_event_data(config, Event(event.type, event.data))
    public = EventOut.from_recorded(event, data)
    # Who recorded a move is not a card, but a reader without rights has no need of it.
    return public.model_copy(update={"metadata": {}})


def _answer(status_code: int, body: str) -> Response[Any]:
    """Return a stored answer again, byte for byte, marked as replayed."""
    headers = {"Idempotent-Replayed": "true"}
    version = json.loads(body).get("version")
    if version is not None:
        headers["ETag"] = etag(int(version))
    return Response(body.encode(), status_code=status_code, headers=headers)


__all__ = [
    "MatchController",
    "MatchKey",
    "MatchKeys",
    "can_see_hidden",
    "etag",
    "existing_match",
    "match_out",
    "readable_match",
]
