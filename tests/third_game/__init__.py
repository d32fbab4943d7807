"""Draw high: a third game that lives only in the tests, to prove the game seam (#30 item 4).

Each seat in turn, from the dealer's left, draws the top card of a deck the server
(or the scorer) dealt; the highest card takes the hand (ranks two to ace, ties
broken by suit: clubs, diamonds, hearts, spades). The first seat to win the
format's hands (``first-to-N``) wins the match. Its package is the whole game:
the engine (``engine``), the match's series (``series``), its ``GameRules``
(``rules``) and how the pages draw it (``presentation``). Registering it is two
entries in ``domain.games``: ``GAMES`` and ``PRESENTATIONS`` (``register``).
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
    """Register draw high in the games' registry for the block's duration."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(GAMES, RULES.game, RULES)
        patch.setitem(PRESENTATIONS, PRESENTATION.game, PRESENTATION)
        yield


__all__ = ["PRESENTATION", "RULES", "registered"]
