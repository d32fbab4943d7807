"""Rounds as events: decide/evolve, the RoundEnded event, and rounds composed into a match."""

from __future__ import annotations

import random
import re
from pathlib import Path

from domain.cuttle import (
    Outcome,
    Position,
    Termination,
    Variant,
    decide,
    evolve,
    initial_position,
    legal_moves,
    outcome_of,
)
from domain.match import CuttleFormat, CuttleSeries
from tests.cuttle.helpers import pos
from tests.strategies import cuttle_setup

DOCS = Path(__file__).resolve().parent.parent.parent / "docs" / "notation.md"


def play_round(variant: Variant, seed: int, dealer: int) -> Outcome:
    """Play a random round through decide/evolve only, as the recorder does."""
    rng = random.Random(seed)
    setup = cuttle_setup(variant, rng, dealer)
    position = initial_position(setup)
    ended = None
    while ended is None:
        moves = list(legal_moves(position))
        for event in decide(position, rng.choice(moves).text()):
            position = evolve(position, event)
            ended = ended or outcome_of(event)
    assert ended == position.result
    return ended


class TestEvents:
    def test_round_ended_is_the_last_event_and_carries_the_outcome(self) -> None:
        events = decide(pos(hands="KH / -", points="9C 5C / -"), "P0 king KH")
        assert ["MovePlayed", "RoundEnded"] == [e.type for e in events]
        assert Outcome(Termination.GOAL, 0) == outcome_of(events[-1])

    def test_resignation_event(self) -> None:
        events = decide(pos("cutthroat", hands="- / - / -"), "P1 resign")
        assert Outcome(Termination.RESIGNATION, None, 1) == outcome_of(events[-1])

    def test_derived_events_change_nothing_when_folded(self) -> None:
        p = pos(hands="AS / -")
        for e in decide(p, "P0 oneoff AS"):
            p = evolve(p, e)
        events = decide(p, "P1 decline")
        assert "OneOffResolved" == events[1].type
        assert p == evolve(p, events[1])

    def test_move_events_hold_the_canonical_text(self) -> None:
        p = pos(hands="4S / 5C 6C")
        assert {"move": "P0 oneoff 4S"} == dict(decide(p, "p0  ONEOFF 4s").pop(0).data)


class TestMatch:
    def test_rounds_feed_a_series_until_it_is_over(self) -> None:
        series = CuttleSeries(Variant.STANDARD, CuttleFormat.from_text("normal"), first_dealer=0)
        seed = 0
        while not series.is_over():
            series = series.record(play_round(Variant.STANDARD, seed, series.dealer))
            seed += 1
        result = series.result()
        assert result is not None and 2 == series.wins[result.winners[0]]


class TestDocumentedPositions:
    def test_examples_in_the_notation_guide_are_fixed_points(self) -> None:
        text = DOCS.read_text()
        examples = re.findall(r"^    ((?:classic|standard|cutthroat); .*)$", text, re.M)
        assert examples
        for example in examples:
            assert example == Position.from_text(example).text()
