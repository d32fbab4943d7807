"""Series scoring: Cuttle formats (rules §19) and Kozel loss points (§9-10)."""

from __future__ import annotations

import pytest

from domain.cuttle.outcome import Outcome, Termination, Variant
from domain.errors import IllegalMoveError, InvalidSetupError
from domain.kozel.outcome import DealOutcome, KozelOptions
from domain.match import CuttleFormat, CuttleSeries, KozelSeries, score_deal

WIN0 = Outcome(Termination.GOAL, 0)
WIN1 = Outcome(Termination.GOAL, 1)
DRAW = Outcome(Termination.THREE_PASSES, None)


class TestCuttleFormat:
    @pytest.mark.parametrize(
        ("text", "wins"),
        [
            ("quick", 1),
            ("short", 1),
            ("normal", 2),
            ("extended", 3),
            ("best-of-7", 4),
            ("best-of-1", 1),
        ],
    )
    def test_wins_needed(self, text: str, wins: int) -> None:
        assert wins == CuttleFormat.from_text(text).wins_needed

    @pytest.mark.parametrize("text", ["best-of-4", "best-of-0", "best-of--1", "long", ""])
    def test_rejects_bad_formats(self, text: str) -> None:
        with pytest.raises(InvalidSetupError) as e:
            CuttleFormat.from_text(text)
        assert "INVALID_FORMAT" == e.value.code

    @pytest.mark.parametrize("text", ["quick", "short", "normal", "extended", "best-of-9"])
    def test_text_roundtrips(self, text: str) -> None:
        assert text == CuttleFormat.from_text(text).text()


class TestCuttleSeries:
    def series(self, fmt: str = "normal", variant: Variant = Variant.STANDARD) -> CuttleSeries:
        return CuttleSeries(variant, CuttleFormat.from_text(fmt), first_dealer=0)

    def test_draws_do_not_count(self) -> None:
        s = self.series().record(DRAW).record(WIN0).record(DRAW).record(WIN0)
        assert (2, 0) == s.wins
        assert 2 == s.drawn_rounds
        assert (0,) == s.result().winners  # type: ignore[union-attr]

    def test_not_over_before_enough_wins(self) -> None:
        assert self.series("extended").record(WIN0).record(WIN1).record(WIN0).result() is None

    def test_quick_draw_is_drawn_match(self) -> None:
        result = self.series("quick").record(DRAW).result()
        assert result is not None and result.is_draw

    def test_deal_alternates_after_draws_too(self) -> None:
        s = self.series("extended")
        assert [0, 1, 0] == [s.dealer, s.record(DRAW).dealer, s.record(DRAW).record(WIN1).dealer]

    def test_cutthroat_deal_passes_left(self) -> None:
        s = self.series(variant=Variant.CUTTHROAT)
        assert [0, 1, 2, 0] == [
            s.dealer,
            s.record(DRAW).dealer,
            s.record(DRAW).record(DRAW).dealer,
            s.record(DRAW).record(DRAW).record(DRAW).dealer,
        ]

    def test_record_after_result_is_match_over(self) -> None:
        with pytest.raises(IllegalMoveError) as e:
            self.series("short").record(WIN1).record(WIN0)
        assert "MATCH_OVER" == e.value.code

    def test_two_player_match_resignation(self) -> None:
        result = self.series().record(WIN0).resign_match(0).result()
        assert result is not None and (1,) == result.winners and "resignation" == result.reason

    def test_cutthroat_cannot_resign_match(self) -> None:
        with pytest.raises(IllegalMoveError) as e:
            self.series(variant=Variant.CUTTHROAT).resign_match(2)
        assert "WRONG_PHASE" == e.value.code


class TestKozelScoring:
    @pytest.mark.parametrize(
        ("points", "tricks", "loser", "loss"),
        [
            ((61, 59), (4, 3), 1, 2),
            ((89, 31), (5, 2), 1, 2),
            ((90, 30), (5, 2), 1, 4),  # 30 or fewer: 4
            ((0, 120), (1, 8), 0, 4),  # a trick with no points still gives 4 (R24)
            ((120, 0), (9, 0), 1, 6),  # no trick: 6
        ],
    )
    def test_loss_points(
        self, points: tuple[int, int], tricks: tuple[int, int], loser: int, loss: int
    ) -> None:
        score = score_deal(DealOutcome(points, tricks, 0))
        assert (loser, loss) == (score.losing_team, score.loss_points)

    def test_eggs_give_nothing_by_default(self) -> None:
        s = KozelSeries(KozelOptions(), first_dealer=0).record(DealOutcome((60, 60), (4, 4), 1))
        assert (0, 0) == s.loss_points and 1 == s.eggs and 1 == s.multiplier

    def test_eggs_double_next_decided_deal(self) -> None:
        s = KozelSeries(KozelOptions(eggs_double_next=True), first_dealer=0)
        s = s.record(DealOutcome((60, 60), (4, 4), 1)).record(DealOutcome((60, 60), (4, 4), 1))
        assert 4 == s.multiplier
        s = s.record(DealOutcome((70, 50), (4, 4), 1))
        assert (0, 8) == s.loss_points and 1 == s.multiplier

    def test_overshooting_the_limit_ends_match_with_goat(self) -> None:
        s = KozelSeries(KozelOptions(), first_dealer=3)
        for _ in range(2):
            s = s.record(DealOutcome((20, 100), (1, 8), 2))  # team A takes 4 twice
        s = s.record(DealOutcome((70, 50), (4, 5), 2))  # B takes 2
        assert s.result() is None
        s = s.record(DealOutcome((0, 120), (0, 9), 1))  # A takes 6: 8 + 6 = 14
        result = s.result()
        assert result is not None
        assert ((1, 3), (0, 2), "goat") == (result.winners, result.losers, result.reason)
        assert (14, 2) == s.loss_points

    def test_dealer_rotates_and_last_trick_leads(self) -> None:
        s = KozelSeries(KozelOptions(), first_dealer=2)
        assert (2, 3) == (s.dealer, s.leader)
        s = s.record(DealOutcome((70, 50), (4, 5), 1))
        assert (3, 1) == (s.dealer, s.leader)

    @pytest.mark.parametrize("limit", [1, 0, -3, 2.5, True])
    def test_bad_loss_limit(self, limit: object) -> None:
        with pytest.raises(InvalidSetupError) as e:
            KozelOptions(loss_limit=limit)  # type: ignore[arg-type]
        assert "INVALID_FORMAT" == e.value.code
