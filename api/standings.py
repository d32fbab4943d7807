"""``/competitions/{id}/standings``: the standings read model as JSON, CSV or Markdown."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from litestar import Controller, Request, Response, get
from litestar.di import NamedDependency
from litestar.params import Parameter
from psycopg_pool import AsyncConnectionPool

from api.auth import Principal, require_read
from api.competitions import CompetitionId
from api.openapi import OBJECT, TEXT, documented
from api.schemas import choice_schema, problem_responses, query_choice
from projections.reports import standings_report, to_csv, to_markdown
from service import competitions

_MEDIA = {"json": "application/json", "csv": "text/csv", "markdown": "text/markdown"}
Format = Literal["json", "csv", "markdown"]
_FORMATS: dict[str, Format] = {
    "json": "json",
    "csv": "csv",
    "markdown": "markdown",
    "md": "markdown",
}


class StandingsController(Controller):
    """Competition standings."""

    path = "/competitions"
    tags = ("standings",)

    @get(
        "/{competition_id:uuid}/standings",
        operation_id="GetStandings",
        operation_class=documented(
            media={"application/json": OBJECT, "text/csv": TEXT, "text/markdown": TEXT},
            replace=True,
        ),
        summary="Standings and ratings: JSON, CSV or Markdown (?format= or Accept)",
        responses=problem_responses(401, 403, 404, 422),
    )
    async def standings(
        self,
        request: Request[Any, Any, Any],
        competition_id: CompetitionId,
        principal: NamedDependency[Principal | None],
        reads: NamedDependency[AsyncConnectionPool],
        format: Annotated[
            str | None,
            Parameter(
                description="json (default), csv, or markdown (also md); else the Accept header.",
                schema_extra=choice_schema(_FORMATS),
            ),
        ] = None,
    ) -> Response[Any]:
        """Return the standings; players' names are today's display names."""
        asked = query_choice("format", format, _FORMATS)
        async with reads.connection() as conn:
            competition = await competitions.get_competition(conn, competition_id)
            require_read(principal, competition)
            body = await standings_report(conn, competition)
        chosen = asked or _from_accept(request.headers.get("accept", ""))
        if chosen == "csv":
            return Response(to_csv(body), media_type=_MEDIA["csv"])
        if chosen == "markdown":
            return Response(to_markdown(body, competition.name), media_type=_MEDIA["markdown"])
        return Response(body, media_type=_MEDIA["json"])


def _from_accept(accept: str) -> Format:
    if "text/csv" in accept:
        return "csv"
    if "text/markdown" in accept:
        return "markdown"
    return "json"


__all__ = ["StandingsController"]
