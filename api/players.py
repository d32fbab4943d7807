"""``/players``: the people who play (reference data, readable by anyone)."""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

from litestar import Controller, Request, Response, get, post
from litestar.di import NamedDependency
from litestar.params import JSONBody, Parameter
from psycopg_pool import AsyncConnectionPool

from api.auth import requires
from api.schemas import (
    DEFAULT_LIMIT,
    Cursor,
    Limit,
    PlayerIn,
    PlayerOut,
    PlayerPage,
    decode_cursor,
    encode_cursor,
    next_link,
    problem_responses,
)
from store import accounts
from store.accounts import Role

PlayerId = Annotated[UUID, Parameter(title="Player id", description="The player's UUID.")]


class PlayerController(Controller):
    """List, read and create players."""

    path = "/players"
    tags = ("players",)

    @get(
        operation_id="ListPlayers",
        summary="List players, newest first",
        responses=problem_responses(422),
    )
    async def list_players(
        self,
        request: Request[Any, Any, Any],
        pool: NamedDependency[AsyncConnectionPool],
        limit: Limit = DEFAULT_LIMIT,
        cursor: Cursor = None,
    ) -> Response[PlayerPage]:
        """Return a page of players; follow ``next_cursor`` (or ``Link: rel="next"``) for more."""
        before = decode_cursor(cursor)
        async with pool.connection() as conn:
            page = await accounts.list_players(conn, limit=limit, before=before)
        next_cursor = None if page.next_before is None else encode_cursor(page.next_before)
        body = PlayerPage(
            items=[PlayerOut.from_record(p) for p in page.items], next_cursor=next_cursor
        )
        headers = {} if next_cursor is None else {"Link": next_link(request, next_cursor)}
        return Response(body, headers=headers)

    @get(
        "/{player_id:uuid}",
        operation_id="GetPlayer",
        summary="Read one player",
        responses=problem_responses(404),
    )
    async def get_player(
        self, pool: NamedDependency[AsyncConnectionPool], player_id: PlayerId
    ) -> PlayerOut:
        """Return the player; 404 ``PLAYER_NOT_FOUND`` if there is none with this id."""
        async with pool.connection() as conn:
            return PlayerOut.from_record(await accounts.get_player(conn, player_id))

    @post(
        operation_id="CreatePlayer",
        summary="Create a player (scorer or admin token)",
        guards=[requires(Role.SCORER)],
        responses=problem_responses(400, 401, 403, 409, 413, 422),
        security=[{"bearer": []}],
    )
    async def create_player(
        self, data: JSONBody[PlayerIn], pool: NamedDependency[AsyncConnectionPool]
    ) -> Response[PlayerOut]:
        """Create a player (201); repeating a create with the same ``id`` and name answers 200."""
        async with pool.connection() as conn:
            player, created = await accounts.create_player(
                conn, data.display_name, player_id=data.id
            )
        return Response(
            PlayerOut.from_record(player),
            status_code=201 if created else 200,
            headers={"Location": f"/players/{player.id}"},
        )
