"""``GET /games``: every game matchlog records, as the pages draw it.

The viewer and the scorer's pad read this once and draw any game from its
presentation descriptor (``domain.presentation``) and the engine's public view:
nothing in their scripts names a game. The descriptors come in the request's language
(``domain.presentation.in_words``, the ``moves`` catalog), so the answer varies by it.
"""

from __future__ import annotations

from dataclasses import dataclass

from litestar import Controller, get
from litestar.di import NamedDependency

from domain.games import PRESENTATIONS
from domain.presentation import Presentation, in_words
from service.i18n import translations


@dataclass(frozen=True, slots=True)
class GameList:
    """Every game matchlog records, with how the pages draw it and the forms it offers."""

    items: tuple[Presentation, ...]


class GameController(Controller):
    """The games and their presentation descriptors."""

    path = "/games"
    tags = ("games",)

    @get(operation_id="ListGames", summary="List the games and how the pages draw each")
    async def list_games(self, lang: NamedDependency[str]) -> GameList:
        """Return every registered game's presentation descriptor, in the registry's order,
        its words in the request's language."""
        words = translations(lang, "moves")
        return GameList(items=tuple(in_words(p, words) for p in PRESENTATIONS.values()))


__all__ = ["GameController", "GameList"]
