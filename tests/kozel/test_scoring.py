"""Deals scored into a match (§9, §10, R24-R26, R42) with the engine's outcomes."""

from __future__ import annotations

import pytest

from domain.errors import IllegalMoveError
from domain.kozel import DealOutcome, KozelOptions, apply, decide, outcome
from domain.match import KozelSeries, score_deal
from tests.kozel.support import make_position

# Team A holds every other card; the last trick is 6C 7C 6D 8C, worth nothing.
LAST_TRICK = "6C/7C/6D/8C"


def last_trick(*commands: str) -> DealOutcome:
    p = make_position(LAST_TRICK, leader=0, trump="6H", rest="pile")
    for command in commands:
        p = apply(p, command)
    result = outcome(p)
    assert result is not None
    return result


class TestDealOutcome:
    def test_four_not_six_for_a_pointless_trick(self) -> None:
        """R24: team B took one trick worth 0 points and gets 4, not 6."""
        result = last_trick("S0 lead 6C", "S1 beat 7C", "S2 throw 6D", "S3 beat 8C")
        assert ((120, 0), 1, 3) == (result.card_points, result.tricks[1], result.last_trick_seat)
        assert (1, 4) == (score_deal(result).losing_team, score_deal(result).loss_points)

    def test_six_without_a_trick(self) -> None:
        result = last_trick("S0 lead 6C", "S1 throw 7C", "S2 throw 6D", "S3 throw 8C")
        assert (0, 0) == (result.tricks[1], result.last_trick_seat)
        assert 6 == score_deal(result).loss_points

    def test_deal_played_event_carries_the_outcome(self) -> None:
        p = make_position(LAST_TRICK, leader=0, trump="6H", rest="pile")
        for command in ("S0 lead 6C", "S1 beat 7C", "S2 throw 6D"):
            p = apply(p, command)
        events = decide(p, "S3 beat 8C")
        assert ["CardsBeaten", "TrickTaken", "DealPlayed"] == [e.type for e in events]
        assert {"card_points": [120, 0], "tricks": [2, 1], "last_trick_seat": 3} == dict(
            events[-1].data
        )

    def test_played_out_position_has_an_outcome_and_a_live_one_none(self) -> None:
        assert outcome(make_position(LAST_TRICK, leader=0, trump="6H", rest="pile")) is None
        assert isinstance(
            last_trick("S0 lead 6C", "S1 throw 7C", "S2 throw 6D", "S3 throw 8C"), DealOutcome
        )


class TestLossPoints:
    @pytest.mark.parametrize(
        ("points", "tricks", "loss"),
        [
            ((89, 31), (5, 2), 2),
            ((61, 59), (4, 4), 2),
            ((90, 30), (6, 1), 4),
            ((120, 0), (8, 1), 4),
        ],
    )
    def test_boundaries(self, points: tuple[int, int], tricks: tuple[int, int], loss: int) -> None:
        """§9.2: 31-59 gives 2, 30 or fewer with a trick 4."""
        assert loss == score_deal(DealOutcome(points, tricks, 0)).loss_points


def series(**options: object) -> KozelSeries:
    return KozelSeries(KozelOptions(**options), first_dealer=0)  # type: ignore[arg-type]


EGGS = DealOutcome((60, 60), (4, 4), 1)
B_LOSES_2 = DealOutcome((80, 40), (5, 3), 0)
B_LOSES_4 = DealOutcome((100, 20), (6, 1), 2)
A_LOSES_4 = DealOutcome((20, 100), (1, 6), 3)


class TestMatch:
    def test_eggs_give_nothing_by_default(self) -> None:
        """R25."""
        s = series().record(EGGS).record(B_LOSES_2)
        assert ((0, 2), 1) == (s.loss_points, s.eggs)

    def test_eggs_double_the_next_decided_deal(self) -> None:
        """§11 eggs_double_next: 1 -> 2 -> 4, back to 1 after a decided deal."""
        s = series(eggs_double_next=True).record(EGGS).record(EGGS)
        assert 4 == s.multiplier
        s = s.record(B_LOSES_2)
        assert ((0, 8), 1) == (s.loss_points, s.multiplier)

    def test_dealer_rotates_after_eggs_too(self) -> None:
        """R3."""
        assert [0, 1, 2] == [
            series().dealer,
            series().record(EGGS).dealer,
            series().record(EGGS).record(EGGS).dealer,
        ]

    def test_last_trick_winner_leads_the_next_deal(self) -> None:
        """R6: deal 1 from the dealer's left, then the last trick's taker."""
        assert (1, 3) == (series().leader, series().record(A_LOSES_4).leader)

    def test_overshooting_the_limit_ends_the_match(self) -> None:
        """R26: 10 + 4 = 14 is over 12; team B is the goat."""
        s = series()
        for _ in range(5):
            s = s.record(B_LOSES_2)
        assert (0, 10) == s.loss_points and not s.is_over()
        s = s.record(B_LOSES_4)
        result = s.result()
        assert result is not None and (1, 3) == result.losers and (0, 14) == s.loss_points

    def test_goat_with_eggs_is_a_label(self) -> None:
        """R42."""
        s = series(loss_limit=4).record(EGGS).record(A_LOSES_4)
        result = s.result()
        assert result is not None and "goat-with-eggs" == result.reason
        assert (0, 2) == result.losers

    def test_nothing_after_the_end(self) -> None:
        s = series(loss_limit=2).record(B_LOSES_2)
        with pytest.raises(IllegalMoveError) as e:
            s.record(EGGS)
        assert "MATCH_OVER" == e.value.code
