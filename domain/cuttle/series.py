"""A Cuttle match between rounds: its format (§19), the rounds played, the score.

Series values are immutable: ``record`` returns a new one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from domain.cuttle.outcome import Outcome as CuttleOutcome
from domain.cuttle.outcome import Variant
from domain.errors import IllegalMoveError, InvalidSetupError
from domain.series import MatchResult

_NAMED_FORMATS = {"short": 1, "normal": 3, "extended": 5}
_BEST_OF = re.compile(r"best-of-(\d+)")


@dataclass(frozen=True, slots=True)
class CuttleFormat:
    """A Cuttle series format (§19): ``quick`` or best-of-N with N odd.

    >>> CuttleFormat.from_text('normal').wins_needed
    2
    >>> CuttleFormat.from_text('best-of-7').text()
    'best-of-7'
    """

    best_of: int
    quick: bool = False

    @classmethod
    def from_text(cls, text: str) -> CuttleFormat:
        """Parse ``quick``, ``short``, ``normal``, ``extended`` or ``best-of-N``.

        Raises:
            InvalidSetupError (INVALID_FORMAT): unknown name, or N even or below 1.
        """
        name = text.strip().lower()
        if name == "quick":
            return cls(best_of=1, quick=True)
        if name in _NAMED_FORMATS:
            return cls(best_of=_NAMED_FORMATS[name])
        m = _BEST_OF.fullmatch(name)
        if m and int(m.group(1)) % 2 == 1:
            return cls(best_of=int(m.group(1)))
        raise InvalidSetupError(
            f"{text!r} is not a match format: use quick, short, normal, extended "
            "or best-of-N with N odd",
            code="INVALID_FORMAT",
            details={"format": text},
        )

    def text(self) -> str:
        """Return the canonical name (named formats keep their name)."""
        if self.quick:
            return "quick"
        for name, n in _NAMED_FORMATS.items():
            if n == self.best_of:
                return name
        return f"best-of-{self.best_of}"

    @property
    def wins_needed(self) -> int:
        """Round wins that take the match."""
        return (self.best_of + 1) // 2


@dataclass(frozen=True, slots=True)
class CuttleSeries:
    """The state of a Cuttle match between rounds: rounds played and the score."""

    variant: Variant
    format: CuttleFormat
    first_dealer: int
    rounds: tuple[CuttleOutcome, ...] = ()
    resigned_by: int | None = None

    @property
    def players(self) -> int:
        """How many seats play."""
        return self.variant.players

    @property
    def wins(self) -> tuple[int, ...]:
        """Counted round wins per seat."""
        wins = [0] * self.players
        for outcome in self.rounds:
            if outcome.winner is not None:
                wins[outcome.winner] += 1
        return tuple(wins)

    @property
    def drawn_rounds(self) -> int:
        """Rounds recorded with no winner (they do not count, §19)."""
        return sum(1 for outcome in self.rounds if outcome.winner is None)

    @property
    def dealer(self) -> int:
        """Who deals the next round: 2 players alternate, cutthroat passes left (§19)."""
        return (self.first_dealer + len(self.rounds)) % self.players

    def score_data(self) -> dict[str, object]:
        """Return the running score as JSON-ready data (``series_score``)."""
        return {
            "wins": list(self.wins),
            "drawn_rounds": self.drawn_rounds,
            "rounds": len(self.rounds),
            "wins_needed": self.format.wins_needed,
            "format": self.format.text(),
        }

    def result(self) -> MatchResult | None:
        """Return the match result, or ``None`` while the match goes on."""
        seats = tuple(range(self.players))
        if self.resigned_by is not None:
            winners = tuple(s for s in seats if s != self.resigned_by)
            return MatchResult(winners, (self.resigned_by,), "resignation")
        if self.format.quick and self.rounds:
            winner = self.rounds[0].winner
            if winner is None:
                return MatchResult((), (), "drawn-round")
            return MatchResult((winner,), tuple(s for s in seats if s != winner), "rounds")
        for seat, count in enumerate(self.wins):
            if count >= self.format.wins_needed:
                return MatchResult((seat,), tuple(s for s in seats if s != seat), "rounds")
        return None

    def is_over(self) -> bool:
        """Whether the match has a result."""
        return self.result() is not None

    def record(self, outcome: CuttleOutcome) -> CuttleSeries:
        """Add a finished round.

        Raises:
            IllegalMoveError (MATCH_OVER): the match already has a result.
        """
        self._check_live()
        return _replace_cuttle(self, rounds=(*self.rounds, outcome))

    def resign_match(self, seat: int) -> CuttleSeries:
        """Record a 2-player resignation of the whole match (ruling 37).

        Raises:
            IllegalMoveError (MATCH_OVER): the match already has a result.
            IllegalMoveError (WRONG_PHASE): a cutthroat match (only rounds may be resigned).
        """
        self._check_live()
        if self.players != 2:
            raise IllegalMoveError(
                "in cutthroat a player may resign a round, not the match",
                code="WRONG_PHASE",
                details={"seat": seat},
            )
        return _replace_cuttle(self, resigned_by=seat)

    def _check_live(self) -> None:
        if self.is_over():
            raise IllegalMoveError("the match is over", code="MATCH_OVER")


def _replace_cuttle(
    series: CuttleSeries,
    *,
    rounds: tuple[CuttleOutcome, ...] | None = None,
    resigned_by: int | None = None,
) -> CuttleSeries:
    return CuttleSeries(
        variant=series.variant,
        format=series.format,
        first_dealer=series.first_dealer,
        rounds=series.rounds if rounds is None else rounds,
        resigned_by=series.resigned_by if resigned_by is None else resigned_by,
    )


__all__ = ["CuttleFormat", "CuttleSeries"]
