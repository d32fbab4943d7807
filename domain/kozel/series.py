"""A Kozel match between deals: deals scored in loss points (R24), eggs, the goat (R26).

Series values are immutable: ``record`` returns a new one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from domain.errors import IllegalMoveError
from domain.kozel.context import FIRST_DEAL, MatchContext
from domain.kozel.outcome import DealOutcome, KozelOptions, team_of
from domain.series import MatchResult

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


__all__ = ["DealScore", "KozelSeries", "LossReason", "score_deal"]
