"""Facts about a Kozel position: who may act, the deal's end and outcome, what waits.

Read by the checks, the move generator, the transitions and the views; none of them
changes a position.
"""

from __future__ import annotations

from collections.abc import Iterator

from domain.cards import Card
from domain.kozel.moves import LEAD, MOLODKA, THROW, Move, make_move
from domain.kozel.outcome import DealOutcome
from domain.kozel.pack import PACK, card_points
from domain.kozel.position import Play, Position
from domain.naming import CardsToName


def _is_molodka(hand: tuple[Card, ...]) -> bool:
    # Hands are sorted by suit, so the first and last card decide it.
    return len(hand) == 4 and hand[0].suit == hand[3].suit


def _distance(position: Position, seat: int) -> int:
    return (seat - position.leader) % 4


def _top(trick: tuple[Play, ...]) -> Play:
    """The play that holds the trick: the last beat, else the lead (R12)."""
    for play in reversed(trick):
        if play.kind != THROW:
            return play
    raise AssertionError("a trick always starts with a lead")


def _declare_limit(position: Position) -> int:
    """Declarations must come from a distance below this (R21)."""
    trick = position.trick
    if trick and len(trick[0].cards) == 4:
        return _distance(position, trick[0].seat)
    return 4


def is_terminal(position: Position) -> bool:
    """Whether the deal is played out: hands, stock and table all empty (R16)."""
    return (
        not position.trick
        and not position.draw
        and not position.stock_size
        and not any(position.hands)
    )


def outcome(position: Position) -> DealOutcome | None:
    """Return the deal's card points, tricks and last trick's taker once it is played out."""
    if not is_terminal(position):
        return None
    a = card_points(position.piles[0]) + card_points(position.face_down[0])
    b = card_points(position.piles[1]) + card_points(position.face_down[1])
    return DealOutcome((a, b), position.tricks, position.leader)


def can_declare(position: Position, seat: int) -> bool:
    """Whether ``seat`` may declare a molodka now, out of turn (R19, R21).

    The seat due to lead before anyone has led is excluded: its molodka is its
    lead (R22, R36).
    """
    if position.draw or not _is_molodka(position.hands[seat]):
        return False
    if not position.trick:
        return seat != position.leader
    return _distance(position, seat) < _declare_limit(position)


def to_act(position: Position) -> tuple[int, ...]:
    """Return the seats that may act now, molodka holders included; empty while naming."""
    seats = {s for s in range(4) if can_declare(position, s)}
    turn = position.to_play
    if turn is not None:
        seats.add(turn)
    return tuple(sorted(seats))


def cards_awaited(position: Position) -> int:
    """Return how many drawn cards the scorer must name now (R46); 0 if none."""
    return position.draw


def cards_to_name(position: Position) -> CardsToName | None:
    """Return the drawn cards the scorer must name now (R46): how many, and which.

    Any card in no hand, on no table and in no pile may be named (R43), except the
    indicator under the stock with ``trump_indicator_bottom``: it is named last when
    the naming reaches the stock's bottom, and never before (R32).
    """
    awaited = position.draw
    if not awaited:
        return None
    candidates = unplaced_cards(position)
    if not position.options.trump_indicator_bottom:
        return CardsToName(awaited, candidates)
    indicator = position.indicator
    rest = tuple(c for c in candidates if c != indicator)
    bottom = awaited == position.unknown_stock and len(rest) < len(candidates)
    return CardsToName(awaited, rest, indicator if bottom else None)


def unplaced_cards(position: Position) -> tuple[Card, ...]:
    """Return the cards a scorer may name as drawn from an unknown stock (R43, R46).

    They are the cards in no hand, on no table and in no pile, in pack order; with a
    known stock it is the stock's own cards.
    """
    placed = {id(c) for c in _placed(position)}
    return tuple(c for c in PACK if id(c) not in placed)


def _placed(position: Position) -> Iterator[Card]:
    for hand in position.hands:
        yield from hand
    for play in position.trick:
        yield from play.cards
    for pile in (*position.piles, *position.face_down):
        yield from pile


def read(position: Position, move: Move) -> Move:
    """Return ``move`` as this position reads it: the form ``legal_moves`` lists.

    The seat due to lead that declares a molodka before leading leads its four
    cards (R22, R36); any other move is itself.
    """
    seat = move.seat
    if (
        move.kind != MOLODKA
        or seat is None
        or position.trick
        or position.draw
        or seat != position.leader
        or not _is_molodka(position.hands[seat])
    ):
        return move
    return make_move(LEAD, seat, position.hands[seat])
