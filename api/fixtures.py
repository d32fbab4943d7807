"""``/competitions/{id}/fixtures`` and ``/rounds``: who plays whom in each round, with results
as they come; an organiser's swaps and taken-back rounds, and the records of changes."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from litestar import Controller, Response, get, post
from litestar.di import NamedDependency
from litestar.params import JSONBody, Parameter
from psycopg_pool import AsyncConnectionPool

from api.auth import Principal, require_read, require_scope, requires
from api.competitions import CompetitionId
from api.entrant_schemas import (
    FixturesOut,
    ForfeitIn,
    PairingIn,
    RecordList,
    RecordOut,
    RoundOut,
    SwapIn,
    TableOut,
    TakebackIn,
)
from api.openapi import documented
from api.schemas import problem_responses
from domain.roles import Role
from service import competitions, fixtures, organising
from service.fixture_reports import rounds_report, table_report

RoundNumber = Annotated[int, Parameter(title="Round", description="A round's number.", ge=1)]


class FixtureController(Controller):
    """Pair a competition's rounds, change an unstarted one, and read them and the records."""

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
        reads: NamedDependency[AsyncConnectionPool],
        principal: NamedDependency[Principal | None],
    ) -> FixturesOut:
        """Return every round, with each table's match and result once recorded."""
        async with reads.connection() as conn:
            competition = await competitions.get_competition(conn, competition_id)
        require_read(principal, competition)
        return FixturesOut.model_validate(
            rounds_report(await fixtures.read_rounds(reads, competition_id), competition.bye)
        )

    @post(
        "/{competition_id:uuid}/rounds/{number:int}/swap",
        operation_id="SwapEntrants",
        operation_class=documented(
            example={"a": "<entrant id>", "b": "<entrant id>", "reason": "friends' request"}
        ),
        summary="Swap two entrants between tables of a round none of whose tables has started "
        "(admin or scorer token)",
        opt=requires(Role.SCORER),
        status_code=200,
        responses=problem_responses(401, 403, 404, 409, 413, 422),
        security=[{"bearer": []}],
    )
    async def swap_entrants(
        self,
        competition_id: CompetitionId,
        number: RoundNumber,
        data: JSONBody[SwapIn],
        pool: NamedDependency[AsyncConnectionPool],
        principal: NamedDependency[Principal],
    ) -> RoundOut:
        """Swap the two (a table's and a bye's too) and return the round; the reason is kept.

        A round with a match or a forfeit at any table answers 409 ``ROUND_STARTED``.
        """
        require_scope(principal, competition_id)
        made = await organising.swap_entrants(
            pool, competition_id, number, (data.a, data.b), data.reason, principal.token_id
        )
        (report,) = rounds_report([made])["rounds"]
        return RoundOut.model_validate(report)

    @post(
        "/{competition_id:uuid}/rounds/{number:int}/takeback",
        operation_id="TakeBackRound",
        operation_class=documented(example={"reason": "made before the last result came in"}),
        summary="Take back the last round, none of whose tables has started "
        "(admin or scorer token)",
        opt=requires(Role.SCORER),
        status_code=200,
        responses=problem_responses(401, 403, 404, 409, 413, 422),
        security=[{"bearer": []}],
    )
    async def take_back_round(
        self,
        competition_id: CompetitionId,
        number: RoundNumber,
        data: JSONBody[TakebackIn],
        pool: NamedDependency[AsyncConnectionPool],
        principal: NamedDependency[Principal],
    ) -> FixturesOut:
        """Take the round back (a round robin's: all its rounds) and return the rounds left.

        The round is kept in the records (``GET .../records``); it can be made again.
        """
        require_scope(principal, competition_id)
        rounds = await organising.take_back_round(
            pool, competition_id, number, data.reason, principal.token_id
        )
        async with pool.connection() as conn:
            competition = await competitions.get_competition(conn, competition_id)
        return FixturesOut.model_validate(rounds_report(rounds, competition.bye))

    @get(
        "/{competition_id:uuid}/records",
        operation_id="GetRecords",
        summary="What organisers changed: withdrawals, swaps, taken-back rounds, newest first",
        responses=problem_responses(401, 403, 404),
    )
    async def get_records(
        self,
        competition_id: CompetitionId,
        reads: NamedDependency[AsyncConnectionPool],
        principal: NamedDependency[Principal | None],
    ) -> RecordList:
        """Return every record: who (token id and name), when, why, and what changed."""
        async with reads.connection() as conn:
            competition = await competitions.get_competition(conn, competition_id)
        require_read(principal, competition)
        items = await organising.read_records(reads, competition_id)
        return RecordList(items=[RecordOut.from_record(r) for r in items])
