"""A draw-high match between hands: who won each, first to ``target`` hands."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from domain.series import MatchResult


@dataclass(frozen=True, slots=True)
class Series:
    """Hands won of two seats; the deal passes left after each hand."""

    target: int
    first_dealer: int
    winners: tuple[int, ...] = ()

    @property
    def dealer(self) -> int:
        """The seat that deals the next hand."""
        return (self.first_dealer + len(self.winners)) % 2

    def record(self, winner: int) -> Series:
        """Return the series after a hand ``winner`` won."""
        return replace(self, winners=(*self.winners, winner))

    def rows(self) -> list[dict[str, Any]]:
        """Return each hand's number, winner and the hands won per seat after it."""
        played = enumerate(self.winners, start=1)
        return [{"hand": n, "winner": w, "wins": _wins(self.winners[:n])} for n, w in played]

    def score_data(self) -> dict[str, object]:
        """Return the hands won per seat and the target."""
        return {"wins": _wins(self.winners), "target": self.target}

    def result(self) -> MatchResult | None:
        """Return the result once a seat has won ``target`` hands."""
        wins = _wins(self.winners)
        won = [seat for seat in (0, 1) if wins[seat] >= self.target]
        return MatchResult((won[0],), (1 - won[0],), "hands") if won else None


def _wins(winners: tuple[int, ...]) -> list[int]:
    return [winners.count(0), winners.count(1)]
