"""``/competitions/{id}/fixtures``: who plays whom in each round, with results as they come."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from litestar import Controller, Response, get, post
from litestar.di import NamedDependency
from litestar.params import JSONBody, Parameter
from psycopg_pool import AsyncConnectionPool

from api.auth import Principal, require_read, require_scope, requires
from api.competitions import CompetitionId
from api.entrant_schemas import FixturesOut, ForfeitIn, PairingIn, TableOut
from api.openapi import documented
from api.schemas import problem_responses
from domain.roles import Role
from service import competitions, fixtures
from service.fixture_reports import rounds_report, table_report


class FixtureController(Controller):
    """Pair a competition's rounds and read them."""

    path = "/competitions"
    tags = ("competitions",)

    @post(
        "/{competition_id:uuid}/fixtures",
        operation_id="MakeFixtures",
        operation_class=documented(example={"system": "round-robin", "legs": 2}),
        summary="Make every round-robin round, or the next Swiss round (admin or scorer token)",
        opt=requires(Role.SCORER),
        responses=problem_responses(401, 403, 404, 409, 413, 422),
        security=[{"bearer": []}],
    )
    async def make_fixtures(
        self,
        competition_id: CompetitionId,
        data: JSONBody[PairingIn],
        pool: NamedDependency[AsyncConnectionPool],
        principal: NamedDependency[Principal],
    ) -> Response[FixturesOut]:
        """Make the rounds (201) and return every round of the competition."""
        require_scope(principal, competition_id)
        legs = data.checked_legs()
        rounds = await fixtures.make_rounds(pool, competition_id, data.system, legs)
        async with pool.connection() as conn:
            competition = await competitions.get_competition(conn, competition_id)
        report = rounds_report(rounds, competition.bye)
        return Response(FixturesOut.model_validate(report), status_code=201)

    @post(
        "/{competition_id:uuid}/fixtures/{fixture_id:uuid}/forfeit",
        operation_id="ForfeitFixture",
        operation_class=documented(example={"forfeited_by": ["<entrant id>"]}),
        summary="Mark a table forfeited by one or more of its entrants (admin token)",
        opt=requires(Role.ADMIN),
        status_code=200,
        responses=problem_responses(401, 403, 404, 409, 413, 422),
        security=[{"bearer": []}],
    )
    async def forfeit_fixture(
        self,
        competition_id: CompetitionId,
        fixture_id: Annotated[UUID, Parameter(title="Fixture id", description="A table's id.")],
        data: JSONBody[ForfeitIn],
        pool: NamedDependency[AsyncConnectionPool],
    ) -> TableOut:
        """Mark the table forfeited and return it; the same forfeit again changes nothing."""
        table = await fixtures.forfeit_table(pool, competition_id, fixture_id, data.forfeited_by)
        return TableOut.model_validate(table_report(table))

    @get(
        "/{competition_id:uuid}/fixtures",
        operation_id="GetFixtures",
        summary="The competition's rounds: tables, byes, matches and results",
        responses=problem_responses(401, 403, 404),
    )
    async def get_fixtures(
        self,
        competition_id: CompetitionId,
        pool: NamedDependency[AsyncConnectionPool],
        principal: NamedDependency[Principal | None],
    ) -> FixturesOut:
        """Return every round, with each table's match and result once recorded."""
        async with pool.connection() as conn:
            competition = await competitions.get_competition(conn, competition_id)
        require_read(principal, competition)
        return FixturesOut.model_validate(
            rounds_report(await fixtures.read_rounds(pool, competition_id), competition.bye)
        )
