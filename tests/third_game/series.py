"""A draw-high match between hands: its format (``first-to-N``) and the hands won.

>>> s = Series(2, FirstTo.from_text('first-to-2'), 0).record(1).record(1)
>>> s.wins, s.result().winners, s.dealer
((0, 2), (1,), 0)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from domain.errors import IllegalMoveError, InvalidSetupError
from domain.series import MatchResult

_FIRST_TO = re.compile(r"first-to-([1-9]\d?)")


@dataclass(frozen=True, slots=True)
class FirstTo:
    """The hands that win the match."""

    hands: int

    @classmethod
    def from_text(cls, text: str) -> FirstTo:
        """Read ``first-to-N`` (N from 1 to 99).

        Raises:
            InvalidSetupError (INVALID_FORMAT): anything else.
        """
        m = _FIRST_TO.fullmatch(text.strip().lower())
        if m is None:
            raise InvalidSetupError(
                f"{text!r} is not a draw-high format: write first-to-N",
                code="INVALID_FORMAT",
                details={"format": text},
            )
        return cls(int(m.group(1)))

    def text(self) -> str:
        """Return the canonical text."""
        return f"first-to-{self.hands}"


@dataclass(frozen=True, slots=True)
class Series:
    """Hands won per seat, and who resigned the match if anyone did."""

    seats: int
    format: FirstTo
    first_dealer: int
    winners: tuple[int, ...] = ()
    resigned_by: int | None = None

    @property
    def dealer(self) -> int:
        """The deal passes left after each hand."""
        return (self.first_dealer + len(self.winners)) % self.seats

    @property
    def wins(self) -> tuple[int, ...]:
        """Hands won per seat."""
        return tuple(self.winners.count(seat) for seat in range(self.seats))

    def score_data(self) -> dict[str, object]:
        """Return the running score: hands won per seat and the target."""
        return {"wins": list(self.wins), "hands": len(self.winners), "target": self.format.hands}

    def result(self) -> MatchResult | None:
        """Return the result once a seat reached the target or one resigned."""
        seats = tuple(range(self.seats))
        if self.resigned_by is not None:
            others = tuple(s for s in seats if s != self.resigned_by)
            return MatchResult(others, (self.resigned_by,), "resignation")
        for seat, won in enumerate(self.wins):
            if won >= self.format.hands:
                return MatchResult((seat,), tuple(s for s in seats if s != seat), "hands")
        return None

    def record(self, winner: int) -> Series:
        """Add a hand won by ``winner``.

        Raises:
            IllegalMoveError (MATCH_OVER): the match has a result.
        """
        self._check_live()
        return replace(self, winners=(*self.winners, winner))

    def resign(self, seat: int) -> Series:
        """Record ``seat`` resigning the match.

        Raises:
            IllegalMoveError (MATCH_OVER): the match has a result.
        """
        self._check_live()
        return replace(self, resigned_by=seat)

    def _check_live(self) -> None:
        if self.result() is not None:
            raise IllegalMoveError("the match is over", code="MATCH_OVER")


__all__ = ["FirstTo", "Series"]
