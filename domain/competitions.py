"""A competition's settings: its game's defaults filled in, its format canonical.

The one rule for what a competition may be: the API's create, an import's and the
store's own guard call ``checked_settings``, and a reader trusts a stored row only if
it passes (``store.accounts.readable``). The game's part of it (variants, the default
variant, formats, tiebreaks) is asked of its rules through the registry.

    >>> checked_settings('kozel')
    CompetitionSettings(game='kozel', variant='default', match_format={'loss_limit': 12, \
'eggs_double_next': False}, tiebreaks=(), bye='win')
    >>> checked_settings('cuttle', 'standard', 'best-of-5').match_format
    'extended'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, get_args

from domain.errors import DomainError, invalid_field
from domain.games import rules_for

ByeScore = Literal["win", "draw", "loss"]
"""What a bye scores in a competition's Swiss rounds."""

BYES: tuple[ByeScore, ...] = get_args(ByeScore)


@dataclass(frozen=True, slots=True)
class CompetitionSettings:
    """What a competition's matches share: game, variant and format; and how it ranks.

    ``match_format`` is JSON: the canonical Cuttle format text (``'normal'``), or the
    Kozel options object (``{'loss_limit': 12, 'eggs_double_next': False}``).
    """

    game: str
    variant: str
    match_format: Any
    tiebreaks: tuple[str, ...] = ()
    bye: ByeScore = "win"


def checked_settings(
    game: str,
    variant: str | None = None,
    match_format: Any = None,
    tiebreaks: Sequence[str] = (),
    bye: str = "win",
) -> CompetitionSettings:
    """Return a competition's settings, the game's defaults for what is ``None``, the
    format canonical.

    Raises:
        MalformedError (VALIDATION_FAILED): names the first field that does not check
            out: ``game`` (not a registered game), ``variant`` (missing where the game
            has no default, or not the game's), ``format``, ``tiebreaks`` (not the
            game's, or repeated) or ``bye``.
    """
    try:
        rules = rules_for(game)
    except DomainError as e:
        raise invalid_field("game", e.message) from None
    if variant is None:
        variant = rules.competition_variant
        if variant is None:
            allowed = ", ".join(rules.variants)
            raise invalid_field("variant", f"a {game} competition needs a variant: {allowed}")
    elif variant not in rules.variants:
        allowed = ", ".join(rules.variants)
        raise invalid_field("variant", f"{variant!r} is not a {game} variant: use {allowed}")
    try:
        canonical = rules.canonical_format(match_format)
    except DomainError as e:
        raise invalid_field("format", e.message) from None
    wrong = [t for t in tiebreaks if t not in rules.tiebreaks]
    if wrong:
        raise invalid_field("tiebreaks", f"{wrong[0]!r} is not a {game} tiebreak")
    if len(set(tiebreaks)) != len(tiebreaks):
        raise invalid_field("tiebreaks", "each tiebreak may appear once")
    if bye not in BYES:
        raise invalid_field("bye", f"{bye!r} is not a bye's score: {', '.join(BYES)}")
    return CompetitionSettings(game, variant, canonical, tuple(tiebreaks), bye)


__all__ = ["BYES", "ByeScore", "CompetitionSettings", "checked_settings"]
