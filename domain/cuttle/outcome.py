"""How a Cuttle round ended (rules §15): a termination and, unless drawn, a winner."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Variant(StrEnum):
    """The three rule sets of §1; a match plays one of them throughout."""

    CLASSIC = "classic"
    STANDARD = "standard"
    CUTTHROAT = "cutthroat"

    @property
    def players(self) -> int:
        """How many seats the variant has."""
        return 3 if self is Variant.CUTTHROAT else 2


class Termination(StrEnum):
    """Why a round ended (§15)."""

    GOAL = "goal"
    """A player reached their point goal (§15.1)."""
    THREE_PASSES = "three-passes"
    """Three consecutive passes: a drawn round (§14)."""
    AGREED_DRAW = "agreed-draw"
    """Every player accepted a draw offer (§25, ruling 39)."""
    RESIGNATION = "resignation"
    """A player resigned the round (§15.3, ruling 40)."""
    SCORE_SHEET = "score-sheet"
    """Entered as a result from a score sheet (§27, ruling 41): how it ended is not known."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of one round. ``winner`` is a seat, or ``None`` for a drawn round.

    A 2-player resignation has the opponent as winner; a cutthroat resignation has
    none. ``resigned`` names the seat that resigned, if any.
    """

    termination: Termination
    winner: int | None
    resigned: int | None = None

    @property
    def is_draw(self) -> bool:
        """Whether nobody won the round (it does not count toward the series, §19)."""
        return self.winner is None
