"""Cutthroat rounds: tables of three from score groups, repeated pairs kept to a minimum."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction
from itertools import combinations

import pytest

from domain.fixtures.cutthroat import EXACT_TABLES, cutthroat_round, table_cost


def splits(players: list[int]) -> Iterator[list[tuple[int, ...]]]:
    """Every way to seat ``players`` at tables of three (the brute force to check against)."""
    if not players:
        yield []
        return
    head, rest = players[0], players[1:]
    for pair in combinations(rest, 2):
        left = [p for p in rest if p not in pair]
        for tail in splits(left):
            yield [(head, *pair), *tail]


def round_cost(
    tables: list[tuple[int, ...]], scores: dict[int, Fraction], met: Counter[frozenset[int]]
) -> tuple[int, int]:
    costs = [table_cost(t, scores, met) for t in tables]
    return sum(c[0] for c in costs), sum(c[1] for c in costs)


def season(seed: int, count: int, rounds: int) -> Iterator[tuple[object, ...]]:
    """Play ``rounds`` random rounds; yield each round with what it was made from."""
    rng = random.Random(seed)
    entrants = list(range(count))
    scores = dict.fromkeys(entrants, Fraction(0))
    met: Counter[frozenset[int]] = Counter()
    byes: Counter[int] = Counter()
    for _ in range(rounds):
        ranked = sorted(entrants, key=lambda e: (-scores[e], e))
        before = (ranked, dict(scores), Counter(met), Counter(byes))
        made = cutthroat_round(ranked, scores, met, byes)
        yield (made, *before)
        for table in made.tables:
            met.update(frozenset(p) for p in combinations(table, 2))
            scores[rng.choice(table)] += 1
        for e in made.byes:
            byes[e] += 1
            scores[e] += 1


@pytest.mark.parametrize("count", range(3, 17))
@pytest.mark.parametrize("seed", range(3))
def test_everyone_sits_once_a_round_and_byes_are_fair(count: int, seed: int) -> None:
    for made, ranked, _, _, byes in season(seed, count, 6):
        seated = [e for t in made.tables for e in t] + list(made.byes)
        assert sorted(seated) == sorted(ranked), "each entrant at one table or a bye"
        assert all(len(t) == 3 for t in made.tables)
        assert count % 3 == len(made.byes)
        rank = {e: i for i, e in enumerate(ranked)}
        playing = [o for o in ranked if o not in made.byes]
        for e in made.byes:
            # Byes go to the fewest byes first, then the lowest ranked among them.
            assert all(byes[e] <= byes[o] for o in playing)
            assert all(byes[e] < byes[o] for o in playing if rank[o] > rank[e])
        assert all(rank[t[0]] < rank[t[1]] < rank[t[2]] for t in made.tables)
        assert [rank[t[0]] for t in made.tables] == sorted(rank[t[0]] for t in made.tables)


@pytest.mark.parametrize("count", range(3, 17))
def test_byes_are_spread_before_anyone_has_a_second(count: int) -> None:
    for made, _, _, _, byes in season(count, count, 8):
        after = byes + Counter(made.byes)
        assert max(after.values(), default=0) - min(after.get(e, 0) for e in range(count)) <= 1


@pytest.mark.parametrize("count", range(6, 10))
@pytest.mark.parametrize("seed", range(4))
def test_small_rounds_are_the_cheapest_split_found_by_brute_force(count: int, seed: int) -> None:
    for made, ranked, scores, met, _ in season(seed, count, 5):
        playing = [e for e in ranked if e not in made.byes]
        best = min(round_cost(s, scores, met) for s in splits(playing))
        assert best == round_cost(list(made.tables), scores, met)
        repeat_free = any(round_cost(s, scores, met)[0] == 0 for s in splits(playing))
        assert (made.rematches == 0) == repeat_free


@pytest.mark.parametrize("count", [15, 16, 17, 21])
def test_large_rounds_are_a_local_optimum(count: int) -> None:
    for made, _, scores, met, _ in season(count, count, 4):
        tables = [list(t) for t in made.tables]
        assert len(tables) > EXACT_TABLES
        total = round_cost([tuple(t) for t in tables], scores, met)
        for a, b in combinations(range(len(tables)), 2):
            for i in range(3):
                for j in range(3):
                    x, y = list(tables[a]), list(tables[b])
                    x[i], y[j] = y[j], x[i]
                    swapped = [tuple(t) for t in tables]
                    swapped[a], swapped[b] = tuple(x), tuple(y)
                    assert round_cost(swapped, scores, met) >= total


def test_a_score_group_sits_together_when_it_can() -> None:
    scores = {e: Fraction(1 if e < 3 else 0) for e in range(6)}
    made = cutthroat_round(list(range(6)), scores, {}, {})
    assert ((0, 1, 2), (3, 4, 5)) == made.tables
    # Unless those three already shared tables: then repeats weigh before score gaps.
    met = {frozenset((0, 1)): 1, frozenset((3, 4)): 1}
    again = cutthroat_round(list(range(6)), scores, met, {})
    assert 0 == again.rematches
