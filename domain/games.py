"""The games matchlog records: the one place that lists them.

Everything outside a game's package that differs between games asks that game's
``GameRules`` (``domain.game_rules``) through ``rules_for(game)``. A new game is a
package with a ``match_rules.RULES`` and a ``presentation.PRESENTATION`` (how the
pages draw it, ``domain.presentation``), registered here: its imports, its rules in
``GAMES`` and its presentation in ``PRESENTATIONS``. Nothing else lists the games.

    >>> tuple(GAMES)
    ('cuttle', 'kozel')
    >>> rules_for('kozel').round_word
    'deal'
    >>> presentation_for('kozel').label
    'Kozel'
"""

from __future__ import annotations

from dataclasses import replace

from domain.cuttle.match_rules import RULES as CUTTLE
from domain.cuttle.presentation import PRESENTATION as CUTTLE_PRESENTATION
from domain.errors import InvalidSetupError
from domain.game_rules import AnyRules
from domain.kozel.match_rules import RULES as KOZEL
from domain.kozel.presentation import PRESENTATION as KOZEL_PRESENTATION
from domain.presentation import Presentation

GAMES: dict[str, AnyRules] = {CUTTLE.game: CUTTLE, KOZEL.game: KOZEL}
"""Every game matchlog records, by name."""

PRESENTATIONS: dict[str, Presentation] = {
    # The tiebreaks a competition may list are the rules': the form offers those.
    p.game: replace(p, tiebreaks=tuple(sorted(GAMES[p.game].tiebreaks)))
    for p in (CUTTLE_PRESENTATION, KOZEL_PRESENTATION)
}
"""How the pages draw each game of ``GAMES``, by name."""


def rules_for(game: str) -> AnyRules:
    """Return the rules of a game.

    Raises:
        InvalidSetupError (INVALID_FORMAT): an unknown game.
    """
    try:
        return GAMES[game]
    except KeyError:
        raise InvalidSetupError(
            f"{game!r} is not a game matchlog records: {' or '.join(GAMES)}",
            code="INVALID_FORMAT",
            details={"game": game},
        ) from None


def presentation_for(game: str) -> Presentation:
    """Return how the pages draw a game.

    Raises:
        InvalidSetupError (INVALID_FORMAT): an unknown game.
    """
    rules_for(game)
    return PRESENTATIONS[game]


__all__ = ["GAMES", "PRESENTATIONS", "presentation_for", "rules_for"]
