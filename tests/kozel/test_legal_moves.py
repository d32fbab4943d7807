"""``legal_moves`` is exact: generated from the rules, and accepted by ``apply`` iff listed."""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import combinations
from pathlib import Path

import pytest

from domain.errors import DomainError
from domain.kozel import Move, Position, apply, legal_moves
from domain.legal import LegalMoveView
from tests.kozel.support import new_deal, playout

DATA = Path(__file__).resolve().parent.parent / "data" / "kozel_legal_moves.txt"


def perft_entries() -> list[tuple[str, int]]:
    entries: list[tuple[str, int]] = []
    text = ""
    for line in DATA.read_text().splitlines():
        if line.startswith("position "):
            text = line.removeprefix("position ")
        elif line.startswith("moves "):
            entries.append((text, int(line.removeprefix("moves "))))
    return entries


def candidates(position: Position) -> list[Move]:
    """A superset of every player action: each subset of each hand as lead, beat and
    throw (sizes 0 to the hand's size), and a declaration for each seat."""
    moves = []
    for seat, hand in enumerate(position.hands):
        for size in range(len(hand) + 1):
            for cards in combinations(hand, size):
                moves += [Move(kind, seat, cards) for kind in ("lead", "beat", "throw")]
        moves.append(Move("molodka", seat))
    return moves


def key(move: Move) -> tuple[str, int | None, frozenset]:  # type: ignore[type-arg]
    return move.kind, move.seat, frozenset(move.cards)


def assert_exact(position: Position) -> None:
    listed = list(legal_moves(position))
    keys = {key(m) for m in listed}
    assert len(keys) == len(listed), "a move is listed twice"
    assert len(listed) == legal_moves(position).count()
    assert bool(listed) == bool(legal_moves(position))
    for move in candidates(position):
        try:
            after = apply(position, move)
        except DomainError:
            accepted = False
        else:
            accepted = True
        expected = key(move) in keys
        if move.kind == "molodka" and not position.trick and move.seat == position.leader:
            # R36: the due leader's declaration is its lead of four, listed once as a lead.
            lead = Move("lead", move.seat, position.hands[move.seat])
            expected = len(lead.cards) == 4 and key(lead) in keys
            if accepted:
                assert apply(position, lead) == after
        assert expected == accepted, move.text()
        assert accepted == (move in legal_moves(position)), move.text()


class TestPerft:
    @pytest.mark.parametrize(("text", "count"), perft_entries())
    def test_counts_derived_by_hand(self, text: str, count: int) -> None:
        position = Position.from_text(text)
        assert count == legal_moves(position).count()
        assert_exact(position)

    def test_has_at_least_five_entries(self) -> None:
        assert len(perft_entries()) >= 5


class TestExactness:
    @pytest.mark.parametrize("seed", range(6))
    def test_accepted_iff_listed_along_a_deal(self, seed: int) -> None:
        for position, _move in playout(new_deal(seed), random.Random(seed)):
            assert_exact(position)


class TestLazyView:
    def test_iterating_twice_gives_the_same_moves(self) -> None:
        moves = legal_moves(new_deal(3))
        assert list(moves) == list(moves)

    def test_list_walks_the_generator_once(self) -> None:
        """Like python-chess's test_traverse_once: no __len__ makes list() count first."""
        walks = []

        def generate(position: Position) -> Iterator[Move]:
            walks.append(position)
            return iter(list(legal_moves(position)))

        view = LegalMoveView(new_deal(3), generate, lambda p, m: False)
        assert list(legal_moves(new_deal(3))) == list(view)
        assert 1 == len(walks)

    def test_bool_count_and_membership(self) -> None:
        played_out = Position.from_text(perft_entries()[-1][0])
        assert (False, 0) == (bool(legal_moves(played_out)), legal_moves(played_out).count())
        assert "S0 lead 7S" not in legal_moves(new_deal(3))  # only Move values are moves

    def test_moves_round_trip_through_text(self) -> None:
        for move in legal_moves(new_deal(3)):
            assert move == Move.from_text(move.text())
