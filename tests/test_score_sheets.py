"""Score-sheet matches in the domain (Cuttle §27, Kozel R48): results decided, folded,
refused in the rules' order, and taken back, with no database."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.errors import DomainError
from domain.events import Event
from domain.stream import (
    CreateMatch,
    MatchConfig,
    MatchState,
    Play,
    ResignMatch,
    StartRound,
    TakeBack,
    fold,
    fold_stream,
    step,
)

CUTTLE = MatchConfig("cuttle", "standard", ("a", "b"), 1, format="best-of-5", recording="results")
KOZEL = MatchConfig(
    "kozel",
    "default",
    ("a", "b", "c", "d"),
    0,
    options={"loss_limit": 12, "eggs_double_next": True},
    recording="results",
)


def created(config: MatchConfig) -> tuple[list[Event], MatchState]:
    return step(MatchState(), CreateMatch(config))


def code_of(state: MatchState, command: Any) -> str:
    with pytest.raises(DomainError) as refused:
        step(state, command)
    return refused.value.code


def test_a_match_created_before_score_sheets_reads_as_recorded_by_moves() -> None:
    data = MatchConfig("cuttle", "standard", ("a", "b"), 0).to_data()
    del data["recording"]
    assert "moves" == MatchConfig.from_data(data).recording
    assert "results" == MatchConfig.from_data(CUTTLE.to_data()).recording


def test_a_results_match_deals_nothing_even_when_the_server_deals() -> None:
    events, state = step(MatchState(), CreateMatch(CUTTLE, {"deck": "AS 2S"}))
    assert ["MatchCreated"] == [e.type for e in events]
    assert state.position is None and 0 == state.rounds_started
    assert "WRONG_RECORDING" == code_of(state, StartRound({"deck": "AS 2S"}))


def test_the_rules_order_of_refusals() -> None:
    _, moves = created(MatchConfig("kozel", "default", ("a", "b", "c", "d"), 0, "scorer"))
    # A result in a match recorded by moves: before DEAL_NOT_STARTED, and before MALFORMED.
    assert "WRONG_RECORDING" == code_of(moves, Play("deal 60 60"))
    assert "WRONG_RECORDING" == code_of(moves, Play("deal sixty"))
    _, sheet = created(KOZEL)
    assert "WRONG_RECORDING" == code_of(sheet, Play("S0 concede"))
    assert "MALFORMED" == code_of(sheet, Play("deal sixty 60"))
    assert "INVALID_RESULT" == code_of(sheet, Play("deal 61 60"))
    _, over = step(sheet, Play("deal 0 120 blank A"))
    _, over = step(over, Play("deal 0 120 blank A"))
    assert over.is_over
    for text in ("deal 60 60", "S0 lead 7S", "deal sixty", "deal 61 60"):
        assert "MATCH_OVER" == code_of(over, Play(text))


def test_a_whole_match_resignation_is_no_move_and_is_taken() -> None:
    _, state = created(CUTTLE)
    _, state = step(state, Play("result P0"))
    events, state = step(state, ResignMatch(0))
    assert ["MatchResigned", "MatchEnded"] == [e.type for e in events]
    assert state.result is not None and (1,) == state.result.winners


def test_a_takeback_undoes_the_last_result_only() -> None:
    events, state = created(CUTTLE)
    for text in ("result P0", "result draw"):
        new, state = step(state, Play(text))
        events += new
    before_draw = 3  # MatchCreated, ResultEntered, RoundScored
    assert "TAKEBACK_OUT_OF_RANGE" == code_of(state, TakeBack(1, "too far"))
    assert "TAKEBACK_MID_MOVE" == code_of(state, TakeBack(4, "inside a result"))
    back, _ = step(state, TakeBack(before_draw, "not a draw"))
    events += back
    restored = fold_stream(list(enumerate(events, start=1)))
    assert restored.series == fold(events[:before_draw]).series
    assert 1 == restored.rounds_started


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["result P0", "result P1", "result draw"]), max_size=12))
def test_a_cuttle_sheet_folds_to_the_state_it_was_decided_to(results: list[str]) -> None:
    events, state = created(CUTTLE)
    for text in results:
        if state.is_over:
            assert "MATCH_OVER" == code_of(state, Play(text))
            continue
        new, state = step(state, Play(text))
        events += new
    assert state.series == fold(events).series and state.result == fold(events).result
    series = state.series
    assert series is not None
    wins = [results[: state.rounds_started].count(f"result P{s}") for s in (0, 1)]
    assert wins == series.score_data()["wins"]
    # The dealer alternates from the first dealer, P1, as after played rounds (§19).
    assert (1 + state.rounds_started) % 2 == series.dealer
    assert state.is_over == (max(wins) == 3)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 120), st.sampled_from(["", " blank A", " blank B"])),
        max_size=10,
    )
)
def test_a_kozel_sheet_folds_to_the_state_it_was_decided_to(
    deals: list[tuple[int, str]],
) -> None:
    events, state = created(KOZEL)
    for points, blank in deals:
        text = f"deal {points} {120 - points}{blank}"
        try:
            new, after = step(state, Play(text))
        except DomainError as refused:
            assert refused.code in ("MATCH_OVER", "INVALID_RESULT")
            continue
        events += new
        state = after
    assert state.series == fold(events).series and state.result == fold(events).result
    assert state.series is not None
    assert state.rounds_started == state.series.score_data()["deals"]


class TestSheetLinesAreReadExactly:
    """A result is read word by word: nothing is recorded but what was written (#29)."""

    @pytest.mark.parametrize(
        "text",
        [
            "deal 0 120 blank AB",  # one word, no team: was recorded as 'blank A'
            "deal 120 0 blank BA",
            "deal 0 120 blank A A",  # a team repeated
            "deal 0 120 blank A blank A",
            "deal 0 0 blank A blank B",  # 'blank' repeated
            "deal 0 120 blank",
            "deal 0 120 A",  # a team with no 'blank'
            "deal 0 120 blank Ab",
            "deal 0 120 blank A B A",
            "deal 0 120 blank C",
            "deal 0 120 blanks A",
            "deal 60 60 eggs",  # an unknown word
            "deal 60 60 60",  # a word more
            "deal 60",
            "deal",
            "deal sixty 60",
            "deal 1e2 20",  # numbers as a sheet writes them: no exponent,
            "deal 6_0 60",  # no digit separator,
            "deal nan 60",
            "deal inf -inf",
            "deal +60 60",  # no plus sign,
            "deal 60. 60",  # no dot without decimals,
            "deal ٦٠ 60",  # ASCII digits only (float() reads these as 60)
            "deal 0 120 blan\u212a A",  # a Kelvin sign lower-cases to 'k'
        ],
    )
    def test_a_malformed_kozel_deal_is_refused(self, text: str) -> None:
        _, sheet = created(KOZEL)
        assert "MALFORMED" == code_of(sheet, Play(text))

    @pytest.mark.parametrize(
        "text",
        [
            "deal 60.5 59.5",  # readable, but no card points (R48)
            "deal 130 -10",
            "deal 70 60",
            "deal 0 0 blank A B",  # both teams blank
            "deal 0 120 blank B",  # a blank team with points
        ],
    )
    def test_a_readable_deal_no_deal_can_have_is_invalid(self, text: str) -> None:
        _, sheet = created(KOZEL)
        assert "INVALID_RESULT" == code_of(sheet, Play(text))

    @pytest.mark.parametrize(
        ("text", "canonical"),
        [
            ("deal 0 120 blank A", "deal 0 120 blank A"),
            ("DEAL  120   0 Blank b", "deal 120 0 blank B"),
            ("deal 60.0 060", "deal 60 60"),
        ],
    )
    def test_a_readable_kozel_deal_is_recorded_as_written(self, text: str, canonical: str) -> None:
        _, sheet = created(KOZEL)
        events, _ = step(sheet, Play(text))
        assert canonical == events[0].data["result"]

    @pytest.mark.parametrize(
        "text",
        [
            "result P01",  # was recorded as 'result P1'
            "result P²",  # int() refused it with a ValueError, not MALFORMED
            "result P٣",
            "result P-1",
            "result P 1",
            "result P1 P1",
            "result P1 draw",
            "result draw draw",
            "result P2",  # a seat the variant lacks
            "result",
            "result 1",
        ],
    )
    def test_a_malformed_cuttle_result_is_refused(self, text: str) -> None:
        _, sheet = created(CUTTLE)
        assert "MALFORMED" == code_of(sheet, Play(text))
