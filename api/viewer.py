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
from typing import Final

from litestar import Controller, Response, get
from litestar.di import NamedDependency
from litestar.static_files import create_static_files_router
from litestar.types import ControllerRouterHandler
from psycopg_pool import AsyncConnectionPool

from api.auth import Principal
from api.competitions import CompetitionId
from api.matches import MatchId
from api.page_words import N_, WORDS, page_words_json
from api.players import PlayerId
from api.schemas import problem_responses
from service import players
from service.access import readable_competition, readable_match
from service.i18n import DEFAULT, NAMES, translations

STATIC = Path(__file__).parent / "static"
STATIC_PATH = "/static"

_PAGE = Template("""<!doctype html>
<html lang="$lang">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>$title · $brand</title>
$styles
</head>
<body data-page="$page" data-id="$id">
<nav class="languages" aria-label="$languages">$switcher</nav>
<noscript>$noscript <a href="$json">$json</a></noscript>
<main id="app" aria-live="polite"><p class="loading">$loading</p></main>
<script type="application/json" id="words">$words</script>
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
    lang: str = DEFAULT,
    scripts: tuple[str, ...] = VIEWER_SCRIPTS,
    style: str = "viewer.css",
) -> str:
    """Return the HTML shell of a page in ``lang``; its scripts (files under ``/static``)
    draw everything with the words the shell carries (``api.page_words``).

    ``title`` is already in ``lang`` (``gettext`` of ``PAGE_TITLES``, or a name).

    >>> 'data-page="match"' in page("match", "1", "Cuttle <match>", "/matches/1")
    True
    >>> "Cuttle &lt;match&gt;" in page("match", "1", "Cuttle <match>", "/matches/1")
    True
    >>> '<html lang="ja">' in page("home", "", "x", "/", lang="ja")
    True
    """
    pages = translations(lang, "pages")
    return _PAGE.substitute(
        lang=escape(lang),
        title=escape(title),
        brand=escape(pages.gettext(WORDS["brand"])),
        page=kind,
        id=escape(ident),
        json=escape(json_url),
        languages=escape(pages.gettext(N_("Language"))),
        switcher=switcher(lang),
        noscript=escape(pages.gettext(N_("This page draws with JavaScript; the same data is at"))),
        loading=escape(pages.gettext(WORDS["loading"])),
        words=page_words_json(lang),
        styles=f'<link rel="stylesheet" href="{STATIC_PATH}/{escape(style)}">',
        scripts="\n".join(f'<script src="{STATIC_PATH}/{escape(s)}"></script>' for s in scripts),
    )


def switcher(lang: str) -> str:
    """Return the language switcher: a link per language, by its own name, that asks for
    the page again with ``?lang=`` (the answer remembers the choice on the device).

    >>> 'aria-current="true" lang="ko"' in switcher("ko")
    True
    """
    return " ".join(
        f'<a href="?lang={code}" hreflang="{code}"'
        + (' aria-current="true"' if code == lang else "")
        + f' lang="{code}">{escape(name)}</a>'
        for code, name in NAMES.items()
    )


PAGE_TITLES: Final = {
    "home": N_("Club night"),
    "match": N_("Match"),
    "pad": N_("Scorer's pad"),
    "desk": N_("Organiser's desk"),
    "print": N_("Round {number} pairings"),
}
"""The pages' titles in English (a competition's and a player's page take their name)."""


class ViewerController(Controller):
    """HTML pages that draw matches and competitions from the JSON API."""

    tags = ("viewer",)
    include_in_schema = False

    @get("/", operation_id="Home", media_type="text/html")
    async def home(self, lang: NamedDependency[str]) -> Response[str]:
        """Return the home page: live matches by competition, recent results, competitions,
        and the way to the pad, the organiser's desk and the API docs (its script reads the
        lists anonymously, so a visitor sees what public reads allow)."""
        title = translations(lang, "pages").gettext(PAGE_TITLES["home"])
        html = page("home", "", title, "/matches?status=live", lang=lang, scripts=CLUB_SCRIPTS)
        return Response(html, media_type="text/html; charset=utf-8")

    @get(
        "/players/{player_id:uuid}/view",
        operation_id="ViewPlayer",
        summary="A player's page: matches, rating history, head-to-head, competitions",
        responses=problem_responses(404),
        media_type="text/html",
    )
    async def view_player(
        self,
        player_id: PlayerId,
        pool: NamedDependency[AsyncConnectionPool],
        lang: NamedDependency[str],
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
            lang=lang,
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
        lang: NamedDependency[str],
    ) -> Response[str]:
        """Return the match page (``?ply=N`` picks the position; the script reads it).

        Raises:
            NotFoundError (MATCH_NOT_FOUND): there is no such match.
            UnauthenticatedError, ForbiddenError: its competition's reads are private.
        """
        await readable_match(pool, principal, match_id)
        title = translations(lang, "pages").gettext(PAGE_TITLES["match"])
        html = page("match", str(match_id), title, f"/matches/{match_id}", lang=lang)
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
        lang: NamedDependency[str],
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
            lang=lang,
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


__all__ = ["PAGE_TITLES", "STATIC", "VIEWER_SCRIPTS", "ViewerController", "page", "static_files"]
