"""``legal_moves`` is exact: generated from the rules, and accepted by ``apply`` iff listed."""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import combinations
from pathlib import Path

import pytest

from domain.errors import DomainError, IllegalMoveError
from domain.kozel import (
    Move,
    Position,
    apply,
    cards_to_name,
    is_legal,
    legal_moves,
    read,
    service_moves,
)
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
    ask = cards_to_name(position)
    if ask is not None:
        # Namings are counted, never listed (#29): no player action, the first naming in.
        view = legal_moves(position)
        assert view and ask.orderings() == view.count()
        assert next(iter(view)) in view
        assert not any(move in view for move in candidates(position))
        return
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
        listed_form = read(position, move)
        if listed_form is not move:
            # R36: the due leader's declaration is its lead of four, listed once as a lead.
            expected = key(listed_form) in keys
            if accepted:
                assert apply(position, listed_form) == after
            assert move not in legal_moves(position), move.text()
        else:
            assert accepted == (move in legal_moves(position)), move.text()
        assert expected == accepted, move.text()
        assert (move in legal_moves(position)) == (move in listed), move.text()
        assert is_legal(position, move) == (move in legal_moves(position)), move.text()


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
        """Like python-chess's test_traverse_once: ``len`` keeps the list it generates."""
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

    def test_len_agrees_with_the_iteration(self) -> None:
        moves = legal_moves(new_deal(3))
        assert len(list(legal_moves(new_deal(3)))) == len(moves)


class TestServiceMoves:
    def test_every_seat_may_concede_while_the_deal_is_live(self) -> None:
        conceded = [m.text() for m in service_moves(new_deal(3))]
        assert ["S0 concede", "S1 concede", "S2 concede", "S3 concede"] == conceded

    def test_a_concession_is_not_a_move_of_the_deal(self) -> None:
        concede = Move.from_text("S2 concede")
        deal = new_deal(3)
        assert (False, True) == (concede in legal_moves(deal), is_legal(deal, concede))

    def test_the_engine_leaves_a_concession_to_the_match(self) -> None:
        with pytest.raises(IllegalMoveError) as refused:
            apply(new_deal(3), "S2 concede")
        assert "WRONG_PHASE" == refused.value.code

    @pytest.mark.parametrize("seed", range(3))
    def test_is_legal_is_listed_or_service(self, seed: int) -> None:
        for position, _move in playout(new_deal(seed), random.Random(seed)):
            service = service_moves(position)
            for move in [*candidates(position), *service]:
                in_either = move in legal_moves(position) or move in service
                assert in_either == is_legal(position, move), move.text()
