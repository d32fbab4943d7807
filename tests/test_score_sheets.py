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
