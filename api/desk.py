"""``/organise`` and ``/competitions/{id}/rounds/{n}/print``: the organiser's desk.

HTML shells like the pad's (``api.pad``): no token and no name is in them. Their
scripts (``api/static/session.js``, the sign-in the pad uses too, ``table.js``'s
helpers, and ``desk.js``) read and write through the JSON API with the organiser's
token in the ``Authorization`` header; the desk offers what that token may do. The
print page draws one round on an A4 page and its result slips with print CSS only.
"""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, Response, get
from litestar.di import NamedDependency
from litestar.params import Parameter
from psycopg_pool import AsyncConnectionPool

from api.competitions import CompetitionId
from api.schemas import problem_responses
from api.viewer import PAGE_TITLES, page
from service import competitions
from service.i18n import translations

DESK_SCRIPTS = ("table.js", "session.js", "desk.js")
"""The desk's scripts under ``/static``, in load order: the shared helpers first."""
DESK_STYLE = "desk.css"
"""The desk's style sheet (with its print rules); it imports the pad's and the viewer's."""
_HTML = "text/html; charset=utf-8"

RoundNumber = Annotated[int, Parameter(title="Round", description="The round's number.", ge=1)]


class DeskController(Controller):
    """HTML pages of the organiser's desk."""

    tags = ("desk",)
    include_in_schema = False

    @get("/organise", operation_id="OrganiserDesk", media_type="text/html")
    async def desk(self, lang: NamedDependency[str]) -> Response[str]:
        """Return the desk: sign in, competitions, entrants, rounds, results, standings."""
        html = page(
            "organise",
            "",
            translations(lang, "pages").gettext(PAGE_TITLES["desk"]),
            "/competitions",
            lang=lang,
            scripts=DESK_SCRIPTS,
            style=DESK_STYLE,
        )
        return Response(html, media_type=_HTML)

    @get(
        "/competitions/{competition_id:uuid}/rounds/{number:int}/print",
        operation_id="PrintRound",
        responses=problem_responses(404),
        media_type="text/html",
    )
    async def print_round(
        self,
        competition_id: CompetitionId,
        number: RoundNumber,
        pool: NamedDependency[AsyncConnectionPool],
        lang: NamedDependency[str],
    ) -> Response[str]:
        """Return one round's pairings on an A4 page, then its result slips to cut.

        Raises:
            NotFoundError (COMPETITION_NOT_FOUND): there is no such competition.
        """
        async with pool.connection() as conn:
            await competitions.get_competition(conn, competition_id)
        html = page(
            "print",
            f"{competition_id}/{number}",
            translations(lang, "pages").gettext(PAGE_TITLES["print"]).format(number=number),
            f"/competitions/{competition_id}/fixtures",
            lang=lang,
            scripts=DESK_SCRIPTS,
            style=DESK_STYLE,
        )
        return Response(html, media_type=_HTML)


__all__ = ["DESK_SCRIPTS", "DESK_STYLE", "DeskController"]
