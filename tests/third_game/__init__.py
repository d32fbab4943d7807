"""Draw high, a third game that lives only in the tests, to prove the game seam (#30 item 4).

Each seat in turn draws the deck's top card; the highest card takes the hand; the
first seat to win the format's hands (``first-to-N``) wins the match. Its package is
the whole game: ``engine`` (a hand), ``series`` (a match between hands), ``rules``
(what ``domain.game_defaults.DefaultRules`` cannot know) and ``presentation`` (how
the pages draw it). ``registered()`` adds it to ``domain.games``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from domain.games import GAMES, PRESENTATIONS
from tests.third_game.presentation import PRESENTATION
from tests.third_game.rules import RULES


@contextmanager
def registered() -> Iterator[None]:
    """Register draw high in the games' registry (``GAMES``, ``PRESENTATIONS``) for a block."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(GAMES, RULES.game, RULES)
        patch.setitem(PRESENTATIONS, PRESENTATION.game, PRESENTATION)
        yield


__all__ = ["PRESENTATION", "RULES", "registered"]
