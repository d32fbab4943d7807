"""The reading pages: ``/`` (home), ``/matches/{id}/view``, ``/competitions/{id}/view`` and
``/players/{id}/view``.

The pages are plain HTML shells; their script (``api/static/viewer.js``) reads the
JSON endpoints anonymously (replay, timeline, series, standings, the live feed),
so a page can never show more than the public view while a match is live. The
handlers only check that the match or competition exists and may be read (as the
JSON endpoints do), so a wrong link is a 404.
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from string import Template

from litestar import Controller, Response, get
from litestar.di import NamedDependency
from litestar.static_files import create_static_files_router
from litestar.types import ControllerRouterHandler
from psycopg_pool import AsyncConnectionPool

from api.auth import Principal
from api.competitions import CompetitionId
from api.matches import MatchId
from api.players import PlayerId
from api.schemas import problem_responses
from service import players
from service.access import readable_competition, readable_match

STATIC = Path(__file__).parent / "static"
STATIC_PATH = "/static"

_PAGE = Template("""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>$title · matchlog</title>
$styles
</head>
<body data-page="$page" data-id="$id">
<noscript>This page draws the table with JavaScript; the same data is at
<a href="$json">$json</a>.</noscript>
<main id="app" aria-live="polite"><p class="loading">Loading…</p></main>
$scripts
</body>
</html>
""")


VIEWER_SCRIPTS = ("table.js", "viewer.js")
"""The viewer pages' scripts under ``/static``, in load order."""
CLUB_SCRIPTS = ("table.js", "club.js")
"""The home page's and players' pages' scripts under ``/static``, in load order."""


def page(
    kind: str,
    ident: str,
    title: str,
    json_url: str,
    *,
    scripts: tuple[str, ...] = VIEWER_SCRIPTS,
    style: str = "viewer.css",
) -> str:
    """Return the HTML shell of a page; its scripts (files under ``/static``) draw everything.

    >>> 'data-page="match"' in page("match", "1", "Cuttle <match>", "/matches/1")
    True
    >>> "Cuttle &lt;match&gt;" in page("match", "1", "Cuttle <match>", "/matches/1")
    True
    """
    return _PAGE.substitute(
        title=escape(title),
        page=kind,
        id=escape(ident),
        json=escape(json_url),
        styles=f'<link rel="stylesheet" href="{STATIC_PATH}/{escape(style)}">',
        scripts="\n".join(f'<script src="{STATIC_PATH}/{escape(s)}"></script>' for s in scripts),
    )


class ViewerController(Controller):
    """HTML pages that draw matches and competitions from the JSON API."""

    tags = ("viewer",)
    include_in_schema = False

    @get("/", operation_id="Home", media_type="text/html")
    async def home(self) -> Response[str]:
        """Return the home page: live matches by competition, recent results, competitions,
        and the way to the pad, the organiser's desk and the API docs (its script reads the
        lists anonymously, so a visitor sees what public reads allow)."""
        html = page("home", "", "Club night", "/matches?status=live", scripts=CLUB_SCRIPTS)
        return Response(html, media_type="text/html; charset=utf-8")

    @get(
        "/players/{player_id:uuid}/view",
        operation_id="ViewPlayer",
        summary="A player's page: matches, rating history, head-to-head, competitions",
        responses=problem_responses(404),
        media_type="text/html",
    )
    async def view_player(
        self, player_id: PlayerId, pool: NamedDependency[AsyncConnectionPool]
    ) -> Response[str]:
        """Return a player's page (players are readable by all; their matches of private
        competitions only with a token that may read them, as ``GET /players/{id}`` says).

        Raises:
            NotFoundError (PLAYER_NOT_FOUND): there is no such player.
        """
        async with pool.connection() as conn:
            player = await players.get_player(conn, player_id)
        html = page(
            "player",
            str(player_id),
            player.display_name,
            f"/players/{player_id}",
            scripts=CLUB_SCRIPTS,
        )
        return Response(html, media_type="text/html; charset=utf-8")

    @get(
        "/matches/{match_id:uuid}/view",
        operation_id="ViewMatch",
        summary="A page that draws the table at any ply, and follows a live match",
        responses=problem_responses(401, 403, 404),
        media_type="text/html",
    )
    async def view_match(
        self,
        match_id: MatchId,
        principal: NamedDependency[Principal | None],
        pool: NamedDependency[AsyncConnectionPool],
    ) -> Response[str]:
        """Return the match page (``?ply=N`` picks the position; the script reads it).

        Raises:
            NotFoundError (MATCH_NOT_FOUND): there is no such match.
            UnauthenticatedError, ForbiddenError: its competition's reads are private.
        """
        row = await readable_match(pool, principal, match_id)
        title = f"{str(row['game']).capitalize()} match"
        html = page("match", str(match_id), title, f"/matches/{match_id}")
        return Response(html, media_type="text/html; charset=utf-8")

    @get(
        "/competitions/{competition_id:uuid}/view",
        operation_id="ViewCompetition",
        summary="A page listing a competition's matches and its standings",
        responses=problem_responses(401, 403, 404),
        media_type="text/html",
    )
    async def view_competition(
        self,
        competition_id: CompetitionId,
        principal: NamedDependency[Principal | None],
        pool: NamedDependency[AsyncConnectionPool],
    ) -> Response[str]:
        """Return the competition page: its matches with series scores, and the standings.

        Raises:
            NotFoundError (COMPETITION_NOT_FOUND): there is no such competition.
            UnauthenticatedError, ForbiddenError: its reads are private.
        """
        competition = await readable_competition(pool, principal, competition_id)
        html = page(
            "competition",
            str(competition_id),
            competition.name,
            f"/competitions/{competition_id}/standings",
        )
        return Response(html, media_type="text/html; charset=utf-8")


def static_files() -> ControllerRouterHandler:
    """Return the router serving the viewer's script and style sheet from ``api/static``."""
    return create_static_files_router(
        path=STATIC_PATH,
        directories=[STATIC],
        include_in_schema=False,
        cache_control=None,
    )


__all__ = ["STATIC", "VIEWER_SCRIPTS", "ViewerController", "page", "static_files"]
