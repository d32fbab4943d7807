"""Rounds composed into a match: series score, who deals next, when it is over.

Each engine decides one round (a Cuttle round, a Kozel deal) and reports how it
ended. This module is the only place that turns those endings into a series score
and a match result; the API, projections and CLI ask it.

- Cuttle (rules §19): ``quick``, ``short``, ``normal``, ``extended`` or
  ``best-of-N``; drawn rounds are recorded but do not count.
- Kozel (rules §9-10): loss points 2/4/6, eggs (optionally doubling the next
  decided deal), and the team that reaches ``loss_limit`` is the goat.

Series values are immutable: ``record`` returns a new one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from domain.cuttle.outcome import Outcome as CuttleOutcome
from domain.cuttle.outcome import Variant
from domain.errors import IllegalMoveError, InvalidSetupError
from domain.kozel.context import FIRST_DEAL, MatchContext
from domain.kozel.outcome import DealOutcome, KozelOptions, team_of

if TYPE_CHECKING:
    from domain.game_rules import Series

_NAMED_FORMATS = {"short": 1, "normal": 3, "extended": 5}
_BEST_OF = re.compile(r"best-of-(\d+)")


@dataclass(frozen=True, slots=True)
class MatchResult:
    """How a match ended. ``winners`` and ``losers`` are seats; both empty for a draw."""

    winners: tuple[int, ...]
    losers: tuple[int, ...]
    reason: str

    @property
    def is_draw(self) -> bool:
        """Whether the match was drawn (only a Cuttle ``quick`` match can be)."""
        return not self.winners


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


LossReason = Literal["eggs", "two", "four", "six"]


@dataclass(frozen=True, slots=True)
class DealScore:
    """One scored Kozel deal: who lost it, the loss points given, and the multiplier used."""

    outcome: DealOutcome
    losing_team: int | None
    base_loss_points: int
    multiplier: int
    loss_points: int

    @property
    def is_eggs(self) -> bool:
        """Whether the deal was eggs (60 : 60)."""
        return self.outcome.is_eggs


def score_deal(outcome: DealOutcome, multiplier: int = 1) -> DealScore:
    """Give loss points for a deal (R24): 2 for 31-59, 4 for 30 or fewer with a trick, 6 for none.

    ``multiplier`` is the pending eggs multiplier (``eggs_double_next``); eggs give nothing.

    >>> score_deal(DealOutcome((60, 60), (4, 3), 0)).loss_points
    0
    >>> score_deal(DealOutcome((120, 0), (7, 0), 0), multiplier=2).loss_points
    12
    >>> score_deal(DealOutcome((90, 30), (5, 1), 1)).loss_points
    4
    """
    a, b = outcome.card_points
    if a == b:
        return DealScore(outcome, None, 0, multiplier, 0)
    loser = 0 if a < b else 1
    points, tricks = outcome.card_points[loser], outcome.tricks[loser]
    if tricks == 0:
        base = 6
    elif points <= 30:
        base = 4
    else:
        base = 2
    return DealScore(outcome, loser, base, multiplier, base * multiplier)


@dataclass(frozen=True, slots=True)
class KozelSeries:
    """The state of a Kozel match between deals: deals scored and loss points per team."""

    options: KozelOptions
    first_dealer: int
    deals: tuple[DealScore, ...] = field(default=())
    conceded_by: int | None = None
    """The seat that conceded the match for its team (R47), if one did."""
    before: MatchContext = FIRST_DEAL
    """What the match held before its first recorded deal (a match started mid-deal)."""

    @classmethod
    def starting(cls, options: KozelOptions, context: MatchContext, dealer: int) -> KozelSeries:
        """Return the series of a match whose first deal is ``context.deal``, dealt by ``dealer``.

        >>> s = KozelSeries.starting(KozelOptions(), MatchContext(5, (4, 2), 2, 1), dealer=3)
        >>> s.dealer, s.loss_points, s.eggs, s.score_data()['deals']
        (3, (4, 2), 2, 4)
        """
        return cls(options, context.first_dealer(dealer), before=context)

    @property
    def loss_points(self) -> tuple[int, int]:
        """Loss points of team A (seats 0, 2) and team B (seats 1, 3)."""
        totals = list(self.before.loss_points)
        for deal in self.deals:
            if deal.losing_team is not None:
                totals[deal.losing_team] += deal.loss_points
        return totals[0], totals[1]

    @property
    def eggs(self) -> int:
        """How many deals ended as eggs."""
        return self.before.eggs + sum(1 for deal in self.deals if deal.is_eggs)

    @property
    def multiplier(self) -> int:
        """The multiplier the next decided deal's loss points get (1 unless eggs doubled it)."""
        if not self.options.eggs_double_next:
            return 1
        pending = self.before.multiplier(True)
        for deal in self.deals:
            pending = pending * 2 if deal.is_eggs else 1
        return pending

    @property
    def dealer(self) -> int:
        """Who deals the next deal: one seat clockwise every deal (R3)."""
        return (self.first_dealer + self.deals_before + len(self.deals)) % 4

    @property
    def deals_before(self) -> int:
        """Deals played before the first recorded one (a match started mid-deal)."""
        return self.before.deal - 1

    @property
    def leader(self) -> int:
        """Who leads the next deal's first trick (R6)."""
        if not self.deals:
            return (self.first_dealer + 1) % 4
        return self.deals[-1].outcome.last_trick_seat

    def score_data(self) -> dict[str, object]:
        """Return the running score as JSON-ready data (``series_score``)."""
        return {
            "loss_points": list(self.loss_points),
            "eggs": self.eggs,
            "deals": self.deals_before + len(self.deals),
            "multiplier": self.multiplier,
            "loss_limit": self.options.loss_limit,
        }

    def result(self) -> MatchResult | None:
        """Return the result once a team has conceded (R47) or reached the loss limit (R26).

        >>> KozelSeries(KozelOptions(), 0).concede(3).result()
        MatchResult(winners=(0, 2), losers=(1, 3), reason='concession')
        """
        if self.conceded_by is not None:
            team = team_of(self.conceded_by)
            return MatchResult((1 - team, 3 - team), (team, team + 2), "concession")
        for team, total in enumerate(self.loss_points):
            if total >= self.options.loss_limit:
                goat = (team, team + 2)
                reason = "goat-with-eggs" if self.eggs else "goat"
                return MatchResult((1 - team, 3 - team), goat, reason)
        return None

    def is_over(self) -> bool:
        """Whether a team has reached the loss limit."""
        return self.result() is not None

    def score(self, outcome: DealOutcome) -> DealScore:
        """Score a played-out deal as the next deal of this match, without recording it."""
        return score_deal(outcome, self.multiplier)

    def record(self, outcome: DealOutcome) -> KozelSeries:
        """Score and add a played-out deal.

        Raises:
            IllegalMoveError (MATCH_OVER): the match already has a result.
        """
        return self.recorded(self.score(outcome))

    def recorded(self, deal: DealScore) -> KozelSeries:
        """Add a deal as it was scored (a ``DealScored`` event folded).

        Raises:
            IllegalMoveError (MATCH_OVER): the match already has a result.
        """
        if self.is_over():
            raise IllegalMoveError("the match is over", code="MATCH_OVER")
        return KozelSeries(self.options, self.first_dealer, (*self.deals, deal), None, self.before)

    def concede(self, seat: int) -> KozelSeries:
        """Record ``seat`` conceding the match for its team (R47); the live deal is not scored.

        Raises:
            IllegalMoveError (MATCH_OVER): the match already has a result.
        """
        if self.is_over():
            raise IllegalMoveError("the match is over", code="MATCH_OVER")
        return KozelSeries(self.options, self.first_dealer, self.deals, seat, self.before)


__all__ = [
    "CuttleFormat",
    "CuttleSeries",
    "DealScore",
    "KozelSeries",
    "MatchResult",
    "score_deal",
    "series_score",
    "team_of",
]


def series_score(series: Series) -> dict[str, object]:
    """Return the running score as JSON-ready data (what summaries and views show).

    >>> series_score(KozelSeries(KozelOptions(), 0))
    {'loss_points': [0, 0], 'eggs': 0, 'deals': 0, 'multiplier': 1, 'loss_limit': 12}
    """
    return series.score_data()
