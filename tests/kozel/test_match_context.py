"""A Kozel match can start mid-deal, with its match context (R40)."""

from __future__ import annotations

import random
import re

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
from domain.kozel.reachable import why_unreachable
from domain.kozel.state import EXAMPLE
from domain.match import KozelSeries
from domain.stream import CreateMatch, MatchConfig, MatchState, Play, StartRound, decide, fold

OUTCOMES = (
    DealOutcome((60, 60), (4, 4), 0),  # eggs (R25)
    DealOutcome((70, 50), (3, 3), 0),  # B takes 2 (R24)
    DealOutcome((100, 20), (3, 3), 0),  # B takes 4
    DealOutcome((120, 0), (6, 0), 0),  # B took no trick: 6
    DealOutcome((50, 70), (3, 3), 0),
    DealOutcome((20, 100), (3, 3), 0),
    DealOutcome((0, 120), (0, 6), 0),
)
"""A deal's every scoring: eggs, or 2, 4 or 6 loss points for either team."""


def context_after(series: KozelSeries) -> MatchContext:
    """Return the context of the deal after ``series``' deals, as the match reached it."""
    carried = 0
    for deal in reversed(series.deals):
        if not deal.is_eggs:
            break
        carried += 1
    return MatchContext(len(series.deals) + 1, series.loss_points, series.eggs, carried)


@st.composite
def contexts(draw: st.DrawFn, options: KozelOptions | None = None) -> MatchContext:
    """Return the context a match reaches by deals drawn one by one until it would end."""
    series = KozelSeries(options or KozelOptions(), 0)
    for outcome in draw(st.lists(st.sampled_from(OUTCOMES), max_size=30)):
        after = series.record(outcome)
        if after.is_over():
            break
        series = after
    return context_after(series)


def reached(options: KozelOptions, deals: int) -> set[MatchContext]:
    """Return every context a match reaches before each of its first ``deals`` deals."""
    found: set[MatchContext] = set()
    frontier = {context_after(KozelSeries(options, 0)): KozelSeries(options, 0)}
    for _ in range(deals):
        found |= set(frontier)
        after = (series.record(outcome) for series in frontier.values() for outcome in OUTCOMES)
        frontier = {context_after(s): s for s in after if not s.is_over()}
    return found


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
            "deal=9 loss=14/0 eggs=0 carried=0",  # past the limit (R26)
            "deal=2 loss=6/6 eggs=0 carried=0",  # one deal, two losers (#29)
            "deal=4 loss=3/1 eggs=0 carried=0",  # odd loss points (#29)
            "deal=2 loss=0/8 eggs=0 carried=0",  # one deal gives at most 6
            "deal=5 loss=2/0 eggs=0 carried=0",  # four deals give at least 8
            "deal=3 loss=0/0 eggs=2 carried=1",  # no decided deal broke the run
        ],
    )
    def test_a_context_no_match_can_have_is_refused(self, context: str) -> None:
        with pytest.raises(InvalidSetupError) as refused:
            parse_match_position(f"{EXAMPLE} {context}")
        assert "INVALID_POSITION" == refused.value.code
        assert re.search(r"\bR[0-9]+: ", str(refused.value))

    @pytest.mark.parametrize(
        "context",
        [
            "deal=+5 loss=4/2 eggs=2 carried=1",
            "deal=5_0 loss=4/2 eggs=2 carried=1",
            "deal=٥ loss=4/2 eggs=2 carried=1",
            "deal=5 loss=4/2/0 eggs=2 carried=1",
            "deal=5 loss=-4/2 eggs=2 carried=1",
            f"deal={'9' * 5000} loss=4/2 eggs=2 carried=1",
        ],
    )
    def test_a_context_number_is_ascii_digits(self, context: str) -> None:
        with pytest.raises(MalformedError):
            parse_match_position(f"{EXAMPLE} {context}")

    @pytest.mark.parametrize(
        "options",
        [
            KozelOptions(),
            KozelOptions(loss_limit=20),
            KozelOptions(eggs_double_next=True),
            KozelOptions(loss_limit=30, eggs_double_next=True),
        ],
    )
    def test_exactly_the_contexts_deals_reach_are_accepted(self, options: KozelOptions) -> None:
        """Every context of the first six deals' region is accepted iff some deals reach it."""
        deals = 6
        limit = options.loss_limit
        accepted = {
            MatchContext(deal, (a, b), eggs, carried)
            for deal in range(1, deals + 1)
            for a in range(limit + 3)
            for b in range(limit + 3)
            for eggs in range(deal)
            for carried in range(eggs + 1)
            if why_unreachable(deal, (a, b), eggs, carried, options) is None
        }
        assert reached(options, deals) == accepted

    @given(contexts(KozelOptions(eggs_double_next=True)))
    def test_a_doubled_context_deals_reach_round_trips(self, context: MatchContext) -> None:
        _, position = parse_match_position(EXAMPLE)
        text = format_match_position(context, position).replace(
            "tricks=0/0", "tricks=0/0 rules=12+eggs"
        )
        assert text == format_match_position(*parse_match_position(text))


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
