"""The match decider: ``step`` is ``decide`` then ``fold``, for every kind of command."""

from __future__ import annotations

import random

import pytest

from domain.stream import (
    CreateMatch,
    MatchConfig,
    MatchState,
    Play,
    decide,
    fold,
    rules_for,
    step,
)
from tests.recording.play import shuffled_deal


@pytest.mark.parametrize(
    ("game", "variant", "seats", "fmt", "options"),
    [
        ("cuttle", "standard", 2, "normal", {}),
        ("cuttle", "cutthroat", 3, "short", {}),
        ("kozel", "default", 4, None, {"loss_limit": 4}),
    ],
)
def test_step_equals_decide_then_fold(
    game: str, variant: str, seats: int, fmt: str | None, options: dict[str, int]
) -> None:
    rng = random.Random(9)
    players = tuple(f"p{i}" for i in range(seats))
    config = MatchConfig(game, variant, players, 0, "server", fmt, options)
    state = MatchState()
    command: CreateMatch | Play = CreateMatch(config, shuffled_deal(game, variant, rng))
    rules = rules_for(game)
    plies = 0
    while True:
        events, after = step(state, command)
        assert events == decide(state, command)
        assert fold(events, state) == after
        state = after
        if state.is_over:
            break
        moves = [m.text() for m in rules.legal_moves(state.position)]
        choice = rng.choice(moves)
        command = Play(choice, next_deal=shuffled_deal(game, variant, rng))
        plies += 1
    assert plies > 10
