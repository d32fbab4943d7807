"""``/competitions/{id}/entrants``: who plays in a competition."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from litestar import Controller, Response, get, post
from litestar.di import NamedDependency
from litestar.params import JSONBody, Parameter
from psycopg_pool import AsyncConnectionPool

from api.auth import Principal, require_read, require_scope, requires
from api.competitions import CompetitionId
from api.entrant_schemas import EntrantIn, EntrantList, EntrantOut, WithdrawIn
from api.openapi import documented
from api.schemas import problem_responses
from domain.roles import Role
from service import competitions, organising


class EntrantController(Controller):
    """Enter players or Kozel pairs in a competition, list them, withdraw one."""

    path = "/competitions"
    tags = ("competitions",)

    @post(
        "/{competition_id:uuid}/entrants",
        operation_id="AddEntrant",
        summary="Enter a player (Cuttle) or a fixed pair (Kozel) (admin or scorer token)",
        opt=requires(Role.SCORER),
        responses=problem_responses(401, 403, 404, 409, 413, 422),
        security=[{"bearer": []}],
    )
    async def add_entrant(
        self,
        competition_id: CompetitionId,
        data: JSONBody[EntrantIn],
        pool: NamedDependency[AsyncConnectionPool],
        principal: NamedDependency[Principal],
    ) -> Response[EntrantOut]:
        """Add an entrant (201); a player already entered answers 409 ``ALREADY_ENTERED``."""
        require_scope(principal, competition_id)
        async with pool.connection() as conn:
            # The competition first: an unknown one is 404 whatever the body holds.
            competition = await competitions.get_competition(conn, competition_id)
            entrant = await competitions.add_entrant(conn, competition, data.player_ids())
        return Response(EntrantOut.from_record(entrant), status_code=201)

    @get(
        "/{competition_id:uuid}/entrants",
        operation_id="ListEntrants",
        summary="The competition's entrants, in the order they were entered",
        responses=problem_responses(401, 403, 404),
    )
    async def list_entrants(
        self,
        competition_id: CompetitionId,
        reads: NamedDependency[AsyncConnectionPool],
        principal: NamedDependency[Principal | None],
    ) -> EntrantList:
        """Return every entrant with its players."""
        async with reads.connection() as conn:
            competition = await competitions.get_competition(conn, competition_id)
            require_read(principal, competition)
            items = await competitions.list_entrants(conn, competition_id)
        return EntrantList(items=[EntrantOut.from_record(e) for e in items])

    @post(
        "/{competition_id:uuid}/entrants/{entrant_id:uuid}/withdraw",
        operation_id="WithdrawEntrant",
        operation_class=documented(example={"reason": "left early: train home"}),
        summary="Withdraw an entrant, a Kozel pair too: paired in no later round "
        "(admin or scorer token)",
        opt=requires(Role.SCORER),
        status_code=200,
        responses=problem_responses(401, 403, 404, 409, 413, 422),
        security=[{"bearer": []}],
    )
    async def withdraw_entrant(
        self,
        competition_id: CompetitionId,
        entrant_id: Annotated[UUID, Parameter(title="Entrant id", description="An entrant's id.")],
        data: JSONBody[WithdrawIn],
        pool: NamedDependency[AsyncConnectionPool],
        principal: NamedDependency[Principal],
    ) -> EntrantOut:
        """Withdraw the entrant and return it with ``withdrawn``; results played stand.

        Its tables not yet started are forfeited to its opponents (docs/competitions.md).
        """
        require_scope(principal, competition_id)
        entrant = await organising.withdraw_entrant(
            pool, competition_id, entrant_id, data.reason, principal.token_id
        )
        return EntrantOut.from_record(entrant)
