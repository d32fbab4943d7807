"""``/competitions``: club seasons and tournaments; private ones need a token to read."""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

from litestar import Controller, Request, Response, get, post
from litestar.di import NamedDependency
from litestar.openapi import ResponseSpec
from litestar.params import JSONBody, Parameter
from psycopg_pool import AsyncConnectionPool

from api.auth import Principal, readable_private, require_read, require_role, requires
from api.openapi import documented
from api.schemas import (
    DEFAULT_LIMIT,
    LINK_HEADER,
    CompetitionIn,
    CompetitionOut,
    CompetitionPage,
    Cursor,
    Limit,
    decode_cursor,
    next_page,
    problem_responses,
)
from domain.roles import Role
from service import competitions

CompetitionId = Annotated[
    UUID, Parameter(title="Competition id", description="The competition's UUID.")
]


class CompetitionController(Controller):
    """List, read and create competitions."""

    path = "/competitions"
    tags = ("competitions",)

    @get(
        operation_id="ListCompetitions",
        summary="List the competitions the caller may read, newest first",
        responses=problem_responses(401, 422),
        response_headers=[LINK_HEADER],
    )
    async def list_competitions(
        self,
        request: Request[Any, Any, Any],
        reads: NamedDependency[AsyncConnectionPool],
        principal: NamedDependency[Principal | None],
        limit: Limit = DEFAULT_LIMIT,
        cursor: Cursor = None,
        writable: Annotated[
            bool,
            Parameter(
                description="true: only the competitions the caller's token may record in"
                " (a limited scorer's own); needs a token."
            ),
        ] = False,
    ) -> Response[CompetitionPage]:
        """Return a page of competitions; private ones only to tokens that may act on them.

        Raises:
            UnauthenticatedError (UNAUTHENTICATED): ``writable=true`` without a token.
        """
        before = decode_cursor(cursor)
        # Every token may record (admin or scorer), a limited one only in its competitions.
        scope = require_role(principal, Role.SCORER).competitions if writable else None
        async with reads.connection() as conn:
            page = await competitions.list_competitions(
                conn,
                limit=limit,
                before=before,
                public_or=readable_private(principal),
                writable=scope,
            )
        next_cursor, headers = next_page(request, page.next_before)
        body = CompetitionPage(
            items=[CompetitionOut.from_record(c) for c in page.items], next_cursor=next_cursor
        )
        return Response(body, headers=headers)

    @get(
        "/{competition_id:uuid}",
        operation_id="GetCompetition",
        summary="Read one competition",
        responses=problem_responses(401, 403, 404, 409),
    )
    async def get_competition(
        self,
        reads: NamedDependency[AsyncConnectionPool],
        principal: NamedDependency[Principal | None],
        competition_id: CompetitionId,
    ) -> CompetitionOut:
        """Return the competition; a private one needs a token that may act on it.

        A stored row that does not check out answers 409 ``COMPETITION_UNREADABLE``.
        """
        async with reads.connection() as conn:
            competition = await competitions.get_competition(conn, competition_id)
        require_read(principal, competition)
        return CompetitionOut.from_record(competitions.readable(competition))

    @post(
        operation_id="CreateCompetition",
        operation_class=documented(
            example={
                "name": "Club season 2026",
                "game": "cuttle",
                "variant": "standard",
                "format": "normal",
                "tiebreaks": ["head-to-head", "wins"],
                "public_reads": True,
                "bye": "win",
            }
        ),
        summary="Create a competition (admin token)",
        opt=requires(Role.ADMIN),
        responses={
            **problem_responses(400, 401, 403, 409, 413, 422),
            200: ResponseSpec(
                CompetitionOut, description="The same id and content again: the competition"
            ),
        },
        security=[{"bearer": []}],
    )
    async def create_competition(
        self, data: JSONBody[CompetitionIn], pool: NamedDependency[AsyncConnectionPool]
    ) -> Response[CompetitionOut]:
        """Create a competition (201); repeating it with the same ``id`` and content answers 200.

        Raises:
            MalformedError (VALIDATION_FAILED): a setting its game refuses, by field.
        """
        async with pool.connection() as conn:
            competition, created = await competitions.create_competition(
                conn, data.new_competition()
            )
        return Response(
            CompetitionOut.from_record(competition),
            status_code=201 if created else 200,
            headers={"Location": f"/competitions/{competition.id}"},
        )
