"""Whole deals played with random legal moves end consistently (§14)."""

from __future__ import annotations

import random
from functools import reduce

import pytest

from domain.kozel import decide, evolve, outcome
from tests.kozel.support import new_deal, playout


class TestRandomDeals:
    @pytest.mark.parametrize("seed", range(20))
    def test_deal_ends_with_120_points_and_3_to_9_tricks(self, seed: int) -> None:
        position = new_deal(seed)
        last = position
        for before, move in playout(position, random.Random(seed)):
            after = reduce(evolve, decide(before, move), before)
            last = after
        result = outcome(last)
        assert result is not None
        assert 120 == sum(result.card_points)
        assert 3 <= sum(result.tricks) <= 9
