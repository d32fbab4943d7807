"""First dealers: shared out evenly over a round robin, and by who is owed most in Swiss."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest

from domain.fixtures.dealers import DealerTally, first_dealers, tally_of
from domain.fixtures.round_robin import round_robin
from service.dealers import round_robin_dealers
from service.swiss import swiss_round


def dealt_by(
    tables: list[tuple[int, ...]], dealers: list[int], seats_per_entrant: int
) -> tuple[Counter[int], Counter[tuple[int, int]]]:
    """Return first deals per entrant and per (entrant, which of its players)."""
    entrants: Counter[int] = Counter()
    players: Counter[tuple[int, int]] = Counter()
    for table, seat in zip(tables, dealers, strict=True):
        assert 0 <= seat < len(table) * seats_per_entrant
        entrants[table[seat % len(table)]] += 1
        players[(table[seat % len(table)], seat // len(table))] += 1
    return entrants, players


@pytest.mark.parametrize("count", range(2, 10))
@pytest.mark.parametrize("legs", [1, 2, 3])
@pytest.mark.parametrize("seats_per_entrant", [1, 2])
def test_each_entrant_deals_first_at_half_its_round_robin_tables(
    count: int, legs: int, seats_per_entrant: int
) -> None:
    rounds = round_robin(list(range(count)), legs)
    dealers = round_robin_dealers([r.tables for r in rounds], legs, seats_per_entrant)
    tables = [t for r in rounds for t in r.tables]
    flat = [d for ds in dealers for d in ds]
    entrants, players = dealt_by(tables, flat, seats_per_entrant)
    per_leg = count - 1
    for e in range(count):
        # Each leg: half its tables, give or take one; two legs: exactly half.
        assert abs(2 * entrants[e] - per_leg * legs) <= (legs % 2)
        if seats_per_entrant == 2:
            assert abs(players[(e, 0)] - players[(e, 1)]) <= 1, "partners take turns"
    if legs == 2:
        deals: Counter[tuple[frozenset[int], int]] = Counter()
        for table, seat in zip(tables, flat, strict=True):
            deals[(frozenset(table), table[seat % 2])] += 1
        assert all(n == 1 for n in deals.values()), "a pair's two meetings: one deal each"


@pytest.mark.parametrize("seed", range(40))
def test_in_swiss_the_entrant_owed_most_deals_first(seed: int) -> None:
    rng = random.Random(seed)
    count = rng.randint(2, 11)
    entrants = list(range(count))
    scores = dict.fromkeys(entrants, Fraction(0))
    met: set[frozenset[int]] = set()
    byes: Counter[int] = Counter()
    stored: list[tuple[int, list[tuple[tuple[int, int], int | None]]]] = []
    for number in range(1, rng.randint(2, 8)):
        # The tally is rebuilt from the stored rounds each time, as the service does.
        tally = tally_of(stored)
        before = {e: tally.owed(e) for e in entrants}
        made = swiss_round(sorted(entrants, key=lambda e: (-scores[e], e)), scores, met, byes)
        (dealers,) = first_dealers([made.tables], 1, tally, number)
        for table, seat in zip(made.tables, dealers, strict=True):
            assert before[table[seat]] >= before[table[1 - seat]]
            met.add(frozenset(table))
            scores[rng.choice(table)] += 1
        for e in made.byes:
            byes[e] += 1
        stored.append((number, list(zip(made.tables, dealers, strict=True))))
    assert tally_of(stored).dealt == tally.dealt


def test_tables_without_a_first_dealer_count_for_nobody() -> None:
    tally: DealerTally[str] = tally_of([(1, [(("a", "b"), None), (("c", "d"), 3)])])
    assert ({"d": 1}, {"c": 0.5, "d": 0.5}) == (tally.dealt, tally.share)
