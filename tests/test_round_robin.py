from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from domain.fixtures.round_robin import round_robin


@pytest.mark.parametrize("count", range(2, 10))
@pytest.mark.parametrize("legs", [1, 2])
def test_every_pair_meets_once_per_leg_and_byes_are_fair(count: int, legs: int) -> None:
    entrants = list(range(count))
    rounds = round_robin(entrants, legs)
    per_leg = count - 1 if count % 2 == 0 else count
    assert per_leg * legs == len(rounds)
    for leg in range(legs):
        leg_rounds = rounds[leg * per_leg : (leg + 1) * per_leg]
        meetings = Counter(frozenset(t) for r in leg_rounds for t in r.tables)
        assert {frozenset(p): 1 for p in combinations(entrants, 2)} == dict(meetings)
        byes = Counter(e for r in leg_rounds for e in r.byes)
        assert ({e: 1 for e in entrants} if count % 2 else {}) == dict(byes)
    for r in rounds:
        seated = [e for t in r.tables for e in t] + list(r.byes)
        assert sorted(seated) == entrants, "everyone plays or sits out, once a round"


@pytest.mark.parametrize("count", range(2, 10))
def test_the_second_leg_swaps_seats(count: int) -> None:
    rounds = round_robin(list(range(count)), 2)
    half = len(rounds) // 2
    for first, second in zip(rounds[:half], rounds[half:], strict=True):
        assert tuple((b, a) for a, b in first.tables) == second.tables
        assert first.byes == second.byes


@pytest.mark.parametrize("count", range(3, 10))
def test_first_seats_are_shared_out(count: int) -> None:
    rounds = round_robin(list(range(count)))
    firsts = Counter(t[0] for r in rounds for t in r.tables)
    assert max(firsts.values()) - min(firsts.values()) <= 1


@pytest.mark.parametrize("entrants", [[], [1], [1, 1]])
def test_too_few_or_repeated_entrants_are_refused(entrants: list[int]) -> None:
    with pytest.raises(ValueError):
        round_robin(entrants)
