"""``/score`` and ``/matches/{id}/score``: the scorer's pad, a page to record a live match.

The pages are HTML shells like the viewer's (``api.viewer.page``): no token and no
card is in them. Their scripts (``api/static/table.js``, the drawing the viewer
uses too, and ``api/static/pad.js``) read and write through the JSON API with the
scorer's token in the ``Authorization`` header. A browser opening a page sends no
token, so a match's shell is served to anyone once the match exists: whoever has
no rights on it gets a page that can show nothing but a refusal.
"""

from __future__ import annotations

from litestar import Controller, Response, get
from litestar.di import NamedDependency
from psycopg_pool import AsyncConnectionPool

from api.matches import MatchId
from api.schemas import problem_responses
from api.viewer import PAGE_TITLES, page
from service.access import existing_match
from service.i18n import translations

PAD_SCRIPTS = ("table.js", "session.js", "pad.js")
"""The pad's scripts under ``/static``, in load order: the shared drawing and sign-in first."""
PAD_STYLE = "pad.css"
_HTML = "text/html; charset=utf-8"


class PadController(Controller):
    """HTML pages of the scorer's pad."""

    tags = ("pad",)
    include_in_schema = False

    @get("/score", operation_id="ScorePad", media_type="text/html")
    async def home(self, lang: NamedDependency[str]) -> Response[str]:
        """Return the pad's first page: sign in, the live matches to record, a new match."""
        html = page(
            "score",
            "",
            translations(lang, "pages").gettext(PAGE_TITLES["pad"]),
            "/matches?status=live",
            lang=lang,
            scripts=PAD_SCRIPTS,
            style=PAD_STYLE,
        )
        return Response(html, media_type=_HTML)

    @get(
        "/matches/{match_id:uuid}/score",
        operation_id="ScoreMatch",
        responses=problem_responses(404),
        media_type="text/html",
    )
    async def score_match(
        self,
        match_id: MatchId,
        pool: NamedDependency[AsyncConnectionPool],
        lang: NamedDependency[str],
    ) -> Response[str]:
        """Return the pad of one match.

        Raises:
            NotFoundError (MATCH_NOT_FOUND): there is no such match.
        """
        await existing_match(pool, match_id)
        html = page(
            "pad",
            str(match_id),
            translations(lang, "pages").gettext(PAGE_TITLES["pad"]),
            f"/matches/{match_id}",
            lang=lang,
            scripts=PAD_SCRIPTS,
            style=PAD_STYLE,
        )
        return Response(html, media_type=_HTML)


__all__ = ["PAD_SCRIPTS", "PAD_STYLE", "PadController"]
