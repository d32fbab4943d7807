"""A Kozel match can start mid-deal, with its match context (R40)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.errors import InvalidSetupError, MalformedError
from domain.kozel import DealOutcome, DealSetup, KozelOptions, initial_position
from domain.kozel.context import (
    EXAMPLE_MATCH,
    FIRST_DEAL,
    MatchContext,
    format_match_position,
    parse_match_position,
)
from domain.kozel.state import EXAMPLE
from domain.match import KozelSeries
from domain.stream import CreateMatch, MatchConfig, MatchState, Play, StartRound, decide, fold


@st.composite
def contexts(draw: st.DrawFn) -> MatchContext:
    deal = draw(st.integers(1, 30))
    eggs = draw(st.integers(0, deal - 1))
    loss = (draw(st.integers(0, 11)), draw(st.integers(0, 11)))
    return MatchContext(deal, loss, eggs, draw(st.integers(0, eggs)))


class TestNotation:
    @given(contexts())
    def test_a_match_position_round_trips(self, context: MatchContext) -> None:
        _, position = parse_match_position(EXAMPLE)
        text = format_match_position(context, position)
        assert (context, position) == parse_match_position(text)
        assert text == format_match_position(*parse_match_position(text))

    def test_a_first_deal_writes_no_context(self) -> None:
        assert (FIRST_DEAL, EXAMPLE) == (
            parse_match_position(EXAMPLE)[0],
            format_match_position(*parse_match_position(EXAMPLE)),
        )

    @pytest.mark.parametrize(
        "context",
        [
            "deal=5 loss=4/2 eggs=2",
            "deal=5 loss=4 eggs=2 carried=1",
            "deal=x loss=1/1 eggs=0 carried=0",
        ],
    )
    def test_a_partial_or_unreadable_context_is_malformed(self, context: str) -> None:
        with pytest.raises(MalformedError):
            parse_match_position(f"{EXAMPLE} {context}")

    @pytest.mark.parametrize(
        "context",
        [
            "deal=0 loss=0/0 eggs=0 carried=0",
            "deal=2 loss=0/0 eggs=2 carried=0",
            "deal=4 loss=0/0 eggs=1 carried=2",
            "deal=4 loss=12/0 eggs=0 carried=0",
        ],
    )
    def test_a_context_no_match_can_have_is_refused(self, context: str) -> None:
        with pytest.raises(InvalidSetupError) as refused:
            parse_match_position(f"{EXAMPLE} {context}")
        assert "INVALID_POSITION" == refused.value.code


class TestSeries:
    def test_the_series_carries_the_context(self) -> None:
        context = MatchContext(5, (4, 2), 2, 1)
        series = KozelSeries.starting(KozelOptions(eggs_double_next=True), context, dealer=3)
        assert (3, 3, (4, 2), 2, 2) == (
            series.first_dealer,
            series.dealer,
            series.loss_points,
            series.eggs,
            series.multiplier,
        )

    def test_the_setup_starts_the_deal_from_the_position(self) -> None:
        _, position = parse_match_position(EXAMPLE_MATCH)
        setup = DealSetup(KozelOptions(), 3, 0, position=EXAMPLE_MATCH)
        assert setup == DealSetup.from_data(setup.to_data())
        assert position == initial_position(setup)


def _created(first_dealer: int) -> MatchState:
    config = MatchConfig("kozel", "default", ("a", "b", "c", "d"), first_dealer, "physical")
    return fold(decide(MatchState(), CreateMatch(config)))


class TestMatch:
    def test_a_match_starts_mid_deal_and_plays_on_to_a_result(self) -> None:
        state = _created(first_dealer=3)
        state = fold(decide(state, StartRound({"position": EXAMPLE_MATCH})), state)
        assert state.series is not None and state.position is not None
        score = state.series.score_data()
        assert ([4, 2], 2, 4) == (score["loss_points"], score["eggs"], score["deals"])
        assert parse_match_position(EXAMPLE_MATCH)[1] == state.position
        rng = random.Random(4)
        unseen = [c.text() for c in state.rules.unplaced_cards(state.position)]
        while not state.is_over:
            if state.position is None:
                deal = unseen_deal(rng)
                state = fold(decide(state, StartRound(deal)), state)
                unseen = [c.text() for c in state.rules.unplaced_cards(state.position)]
                continue
            wanted = state.rules.cards_awaited(state.position)
            if wanted:
                rng.shuffle(unseen)
                move = "cards " + " ".join(unseen[:wanted])
                unseen = unseen[wanted:]
            else:
                move = rng.choice([m.text() for m in state.rules.legal_moves(state.position)])
            state = fold(decide(state, Play(move)), state)
        assert state.series is not None
        assert max(state.series.score_data()["loss_points"]) >= 12  # type: ignore[type-var]

    def test_the_first_dealer_must_agree_with_the_context(self) -> None:
        with pytest.raises(InvalidSetupError) as refused:
            decide(_created(first_dealer=0), StartRound({"position": EXAMPLE_MATCH}))
        assert "INVALID_DECK" == refused.value.code

    def test_only_the_first_deal_starts_from_a_position(self) -> None:
        state = _created(first_dealer=3)
        assert state.config is not None
        played = KozelSeries(KozelOptions(), 3).record(DealOutcome((90, 30), (5, 2), 1))
        with pytest.raises(InvalidSetupError) as refused:
            state.rules.setup_data(state.config, played, {"position": EXAMPLE_MATCH})
        assert "INVALID_DECK" == refused.value.code


def unseen_deal(rng: random.Random) -> dict[str, object]:
    from domain.kozel import PACK

    deck = [c.text() for c in PACK]
    rng.shuffle(deck)
    return {"hands": [deck[i : i + 4] for i in range(0, 16, 4)], "indicator": deck[16]}
