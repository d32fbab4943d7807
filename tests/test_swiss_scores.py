from __future__ import annotations

import uuid
from fractions import Fraction
from typing import Any

from domain.fixtures.results import forfeit_result
from service.fixture_reports import result_text
from service.fixtures import swiss_scores
from store.fixtures import StoredRound, Table

A, B, C = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()


def table(entrants: tuple[uuid.UUID, ...], result: dict[str, Any] | None) -> Table:
    return Table(uuid.uuid4(), uuid.uuid4(), 1, 1, entrants, (), None, result)


def test_a_kozel_pairs_seats_count_as_the_pairs() -> None:
    # Pair B holds seats 1 and 3: their win is B's.
    won = {"winners": [1, 3], "losers": [0, 2], "draw": False}
    rounds = [StoredRound(1, "swiss", 0, (table((A, B), won),), (C,))]
    assert {A: 0, B: 1, C: 1} == swiss_scores([A, B, C], rounds)
    assert "0-1" == result_text({"entrants": [A, B], "result": won})


def test_draws_score_half_and_unplayed_tables_nothing() -> None:
    drawn = {"winners": [], "losers": [], "draw": True}
    rounds = [
        StoredRound(1, "swiss", 0, (table((A, B), drawn),), ()),
        StoredRound(2, "swiss", 0, (table((B, A), None),), ()),
    ]
    assert {A: Fraction(1, 2), B: Fraction(1, 2)} == swiss_scores([A, B], rounds)


def test_a_bye_scores_as_the_competition_says() -> None:
    won = {"winners": [0], "draw": False}
    rounds = [StoredRound(1, "swiss", 0, (table((A, B), won),), (C,))]
    expected = {"win": Fraction(1), "draw": Fraction(1, 2), "loss": Fraction(0)}
    for bye, score in expected.items():
        assert {A: 1, B: 0, C: score} == swiss_scores([A, B, C], rounds, bye)  # type: ignore[arg-type]


def test_a_forfeit_scores_a_win_for_those_who_did_not_forfeit() -> None:
    forfeited = forfeit_result((A, B, C), [B], 3)
    double = forfeit_result((A, B), [A, B], 2)
    rounds = [
        StoredRound(1, "swiss", 0, (table((A, B, C), forfeited),), ()),
        StoredRound(2, "swiss", 0, (table((A, B), double),), (C,)),
    ]
    assert {A: 1, B: 0, C: 2} == swiss_scores([A, B, C], rounds)
