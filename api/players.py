"""``/players``: the people who play (reference data, readable by anyone)."""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

from litestar import Controller, Request, Response, get, post
from litestar.di import NamedDependency
from litestar.openapi import ResponseSpec
from litestar.params import JSONBody, Parameter
from psycopg_pool import AsyncConnectionPool

from api.auth import Principal, readable_private, requires
from api.match_schemas import (
    CompetitionEnteredOut,
    HeadToHeadOut,
    MatchSummaryOut,
    PlayerMatchOut,
    PlayerRatingsOut,
    PlayerRecordOut,
    RatingHistoryOut,
    player_outcome,
)
from api.matches import MATCH_CURSOR_PATTERN, decode_match_cursor, encode_match_cursor
from api.openapi import documented
from api.schemas import (
    DEFAULT_LIMIT,
    LINK_HEADER,
    Cursor,
    Limit,
    PlayerIn,
    PlayerOut,
    PlayerPage,
    decode_cursor,
    link_to_next,
    next_page,
    problem_responses,
    sent_as,
)
from domain.roles import Role
from projections.matches import list_matches
from service import players

PlayerId = Annotated[UUID, Parameter(title="Player id", description="The player's UUID.")]


class PlayerController(Controller):
    """List, read and create players."""

    path = "/players"
    tags = ("players",)

    @get(
        operation_id="ListPlayers",
        summary="List players, newest first",
        responses=problem_responses(422),
        response_headers=[LINK_HEADER],
    )
    async def list_players(
        self,
        request: Request[Any, Any, Any],
        reads: NamedDependency[AsyncConnectionPool],
        limit: Limit = DEFAULT_LIMIT,
        cursor: Cursor = None,
    ) -> Response[PlayerPage]:
        """Return a page of players; follow ``next_cursor`` (or ``Link: rel="next"``) for more."""
        before = decode_cursor(cursor)
        async with reads.connection() as conn:
            page = await players.list_players(conn, limit=limit, before=before)
        next_cursor, headers = next_page(request, page.next_before)
        body = PlayerPage(
            items=[PlayerOut.from_record(p) for p in page.items], next_cursor=next_cursor
        )
        return Response(body, headers=headers)

    @get(
        "/{player_id:uuid}",
        operation_id="GetPlayer",
        summary="Read one player",
        responses=problem_responses(404, 422),
        response_headers=[LINK_HEADER],
    )
    async def get_player(
        self,
        request: Request[Any, Any, Any],
        reads: NamedDependency[AsyncConnectionPool],
        principal: NamedDependency[Principal | None],
        player_id: PlayerId,
        limit: Annotated[
            int, Parameter(ge=1, le=200, description="Most matches to list (1-200).")
        ] = 50,
        cursor: Annotated[
            str | None,
            Parameter(
                description="The previous answer's ``next_cursor``: the next page of matches.",
                schema_extra=sent_as(MATCH_CURSOR_PATTERN),
            ),
        ] = None,
    ) -> Response[PlayerRecordOut]:
        """Return the player with a page of their matches and their results; 404
        ``PLAYER_NOT_FOUND``. Follow ``next_cursor`` (or ``Link: rel="next"``) for older
        matches, as ``GET /matches`` pages.

        Matches of private competitions appear only to callers who may read them.
        """
        readable = readable_private(principal)
        before = decode_match_cursor(cursor)
        async with reads.connection() as conn:
            player = await players.get_player(conn, player_id)
            rows = await list_matches(conn, limit=10_000, player_id=player_id, readable=readable)
            page = await list_matches(
                conn, limit=limit, before=before, player_id=player_id, readable=readable
            )
            entered = await players.competitions_entered(conn, player_id, readable)
        results = {"played": 0, "won": 0, "lost": 0, "drawn": 0}
        for row in rows:
            outcome = player_outcome(row, _seat(row, player_id))
            if outcome in ("won", "lost", "drawn"):
                results["played"] += 1
                results[outcome] += 1
        next_cursor = encode_match_cursor(page[limit - 1]) if len(page) > limit else None
        body = PlayerRecordOut(
            id=player.id,
            display_name=player.display_name,
            created_at=player.created_at,
            results=results,
            matches=[_entry(row, player_id) for row in page[:limit]],
            matches_total=len(rows),
            next_cursor=next_cursor,
            opponents=[HeadToHeadOut(**line) for line in players.head_to_head(rows, player_id)],
            competitions=[
                CompetitionEnteredOut(id=c.id, name=c.name, game=c.game, variant=c.variant)
                for c in entered
            ],
        )
        headers = {} if next_cursor is None else link_to_next(request, next_cursor)
        return Response(body, headers=headers)

    @get(
        "/{player_id:uuid}/ratings",
        operation_id="GetPlayerRatings",
        summary="A player's rating after each finished match, per competition",
        responses=problem_responses(404, 422),
    )
    async def get_player_ratings(
        self,
        reads: NamedDependency[AsyncConnectionPool],
        principal: NamedDependency[Principal | None],
        player_id: PlayerId,
    ) -> PlayerRatingsOut:
        """Return the player's openskill rating history in each competition they finished a
        match in (the standings' ratings, match by match); 404 ``PLAYER_NOT_FOUND``.

        Private competitions appear only to callers who may read them.
        """
        async with reads.connection() as conn:
            histories = await players.rating_histories(conn, player_id, readable_private(principal))
        return PlayerRatingsOut(
            player_id=player_id,
            competitions=[
                RatingHistoryOut(
                    competition_id=h["id"],
                    name=h["name"],
                    game=h["game"],
                    variant=h["variant"],
                    points=h["points"],
                )
                for h in histories
            ],
        )

    @post(
        operation_id="CreatePlayer",
        operation_class=documented(example={"display_name": "Ada"}),
        summary="Create a player (scorer or admin token)",
        opt=requires(Role.SCORER),
        responses={
            **problem_responses(400, 401, 403, 409, 413, 422),
            200: ResponseSpec(PlayerOut, description="The same id and name again: the player"),
        },
        security=[{"bearer": []}],
    )
    async def create_player(
        self, data: JSONBody[PlayerIn], pool: NamedDependency[AsyncConnectionPool]
    ) -> Response[PlayerOut]:
        """Create a player (201); repeating a create with the same ``id`` and name answers 200."""
        async with pool.connection() as conn:
            player, created = await players.create_player(
                conn, data.display_name, player_id=data.id
            )
        return Response(
            PlayerOut.from_record(player),
            status_code=201 if created else 200,
            headers={"Location": f"/players/{player.id}"},
        )


def _seat(row: dict[str, Any], player_id: UUID) -> int:
    """The player's seat in a match row."""
    return [str(p) for p in row["players"]].index(str(player_id))


def _entry(row: dict[str, Any], player_id: UUID) -> PlayerMatchOut:
    """A match row as the player's page lists it: with their seat and outcome."""
    seat = _seat(row, player_id)
    summary = MatchSummaryOut.from_row(row).model_dump()
    return PlayerMatchOut(**summary, seat=seat, outcome=player_outcome(row, seat))
