"""The games matchlog records: the one place that lists them.

Everything outside a game's package that differs between games asks that game's
``GameRules`` (``domain.game_rules``) through ``rules_for(game)``. A new game is a
package with a ``match_rules.RULES``, registered here: its import, and its rules in
``GAMES``. Nothing else lists the games.

    >>> tuple(GAMES)
    ('cuttle', 'kozel')
    >>> rules_for('kozel').round_word
    'deal'
"""

from __future__ import annotations

from domain.cuttle.match_rules import RULES as CUTTLE
from domain.errors import InvalidSetupError
from domain.game_rules import AnyRules
from domain.kozel.match_rules import RULES as KOZEL

GAMES: dict[str, AnyRules] = {CUTTLE.game: CUTTLE, KOZEL.game: KOZEL}
"""Every game matchlog records, by name."""


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


__all__ = ["GAMES", "rules_for"]
