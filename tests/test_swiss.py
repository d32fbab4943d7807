from __future__ import annotations

from collections import Counter
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.fixtures.byes import bye_for
from service.swiss import pairing_cost, swiss_round

Score = Fraction


def perfect_matchings(entrants: list[int]) -> list[list[tuple[int, int]]]:
    """Every way to seat ``entrants`` two to a table (the oracle the pairing must match)."""
    if not entrants:
        return [[]]
    first, rest = entrants[0], entrants[1:]
    found = []
    for i, other in enumerate(rest):
        for tail in perfect_matchings(rest[:i] + rest[i + 1 :]):
            found.append([(first, other), *tail])
    return found


def ranked(scores: dict[int, Score]) -> list[int]:
    return sorted(scores, key=lambda e: (-scores[e], e))


# Each round's outcome for a table: 1 the first seat wins, 0 the second, 0.5 a draw.
outcomes = st.sampled_from([Fraction(1), Fraction(0), Fraction(1, 2)])


@settings(max_examples=60, deadline=None)
@given(
    count=st.integers(min_value=2, max_value=9),
    rounds=st.integers(min_value=1, max_value=6),
    data=st.data(),
)
def test_swiss_rounds_from_random_results(count: int, rounds: int, data: st.DataObject) -> None:
    scores = {e: Fraction(0) for e in range(count)}
    met: set[frozenset[int]] = set()
    had_bye: list[int] = []
    for _ in range(rounds):
        order = ranked(scores)
        made = swiss_round(order, scores, met, Counter(had_bye))
        seated = [e for t in made.tables for e in t] + list(made.byes)
        assert sorted(seated) == list(range(count))
        if count % 2:
            assert [bye_for(order, Counter(had_bye))] == list(made.byes)
        else:
            assert () == made.byes
        playing = [e for e in order if e not in made.byes]
        best = min(pairing_cost(m, scores, met) for m in perfect_matchings(playing))
        assert best == pairing_cost(made.tables, scores, met), "fewest rematches, then gaps"
        assert best[0] == made.rematches
        for a, b in made.tables:
            result = data.draw(outcomes)
            scores[a] += result
            scores[b] += 1 - result
            met.add(frozenset((a, b)))
        for e in made.byes:
            scores[e] += 1  # a bye scores as a win
            had_bye.append(e)
    byes = Counter(had_bye)
    # Nobody has a second bye while someone has none, nor a third before all have two.
    assert not byes or max(byes.values()) - min(byes.get(e, 0) for e in range(count)) <= 1


def test_no_rematch_while_one_can_be_avoided() -> None:
    scores = {e: Fraction(0) for e in range(4)}
    met = {frozenset((0, 1)), frozenset((2, 3))}
    made = swiss_round([0, 1, 2, 3], scores, met, {})
    assert 0 == made.rematches
    assert not {frozenset(t) for t in made.tables} & met


def test_an_unavoidable_rematch_is_counted() -> None:
    scores = {e: Fraction(0) for e in range(2)}
    made = swiss_round([0, 1], scores, {frozenset((0, 1))}, {})
    assert ((0, 1),) == made.tables
    assert 1 == made.rematches


def test_pairs_within_score_groups() -> None:
    scores = {0: Fraction(2), 1: Fraction(2), 2: Fraction(1), 3: Fraction(1), 4: Fraction(0)}
    made = swiss_round([0, 1, 2, 3, 4], scores, set(), {})
    assert ((0, 1), (2, 3)) == made.tables
    assert (4,) == made.byes


def test_the_bye_skips_who_had_one() -> None:
    scores = {e: Fraction(0) for e in range(3)}
    assert (1,) == swiss_round([0, 1, 2], scores, set(), {2: 1}).byes
    assert (2,) == swiss_round([0, 1, 2], scores, set(), {0: 1, 1: 1, 2: 1}).byes
    assert (0,) == swiss_round([0, 1, 2], scores, set(), {0: 1, 1: 2, 2: 2}).byes
