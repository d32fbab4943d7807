"""Kozel's transitions: a play, a declaration, a trick settled, the draws (R12-R15).

Shared by ``play`` (a move known to be legal), the decider's ``step`` and ``evolve``;
nothing here checks a move.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.cards import Card
from domain.kozel.facts import _top
from domain.kozel.moves import CARDS, LEAD, MOLODKA, THROW, Move
from domain.kozel.outcome import team_of
from domain.kozel.pack import sort_cards
from domain.kozel.position import Hands, Piles, Play, Position, new_position


def _draw_seats(start: int, count: int) -> list[int]:
    """Seats that draw ``count`` cards, in order: round robin from the trick's winner (R15)."""
    return [(start + i) % 4 for i in range(count)]


def _do_play(p: Position, seat: int, kind: str, cards: Sequence[Card]) -> Position:
    hand = p.hands[seat]
    # Filtering the sorted hand keeps both parts in canonical order without sorting;
    # cards are interned, so identity is equality.
    if len(cards) == 1:
        card = cards[0]
        played: tuple[Card, ...] = (card,)
        rest = tuple([c for c in hand if c is not card])
    else:
        ids = {id(c) for c in cards}
        played = tuple([c for c in hand if id(c) in ids])
        rest = tuple([c for c in hand if id(c) not in ids])
    h = p.hands
    hands: Hands = (
        rest if seat == 0 else h[0],
        rest if seat == 1 else h[1],
        rest if seat == 2 else h[2],
        rest if seat == 3 else h[3],
    )
    return new_position(
        p.options,
        p.dealer,
        p.leader,
        p.indicator,
        hands,
        p.stock,
        p.unknown_stock,
        (*p.trick, _new_play(Play, (seat, kind, played))),
        p.piles,
        p.face_down,
        p.tricks,
        p.draw,
    )


_new_play = tuple.__new__
"""Builds a ``Play`` from its three fields without the named tuple's Python ``__new__``."""


def _do_declare(p: Position, seat: int) -> Position:
    hands = list(p.hands)
    for play in p.trick:
        hands[play.seat] = sort_cards((*hands[play.seat], *play.cards))
    lead = Play(seat, LEAD, hands[seat])
    hands[seat] = ()
    return new_position(
        p.options,
        p.dealer,
        p.leader,
        p.indicator,
        (hands[0], hands[1], hands[2], hands[3]),
        p.stock,
        p.unknown_stock,
        (lead,),
        p.piles,
        p.face_down,
        p.tricks,
        p.draw,
    )


Settled = tuple[int, Piles, Piles, tuple[int, int], int]
"""What settling a trick changes: the winner, piles, face-down piles, tricks, draw."""


def _settled(p: Position) -> Settled:
    """Settle the full trick of ``p`` (R12-R15): its winner leads next."""
    trick = p.trick
    winner = _top(trick).seat
    team = team_of(winner)
    up: list[Card] = []
    down: list[Card] = []
    for play in trick:
        (down if play.kind == THROW else up).extend(play.cards)
    piles = p.piles
    face_down = p.face_down
    if team == 0:
        piles = (sort_cards((*piles[0], *up)), piles[1])
        if down:
            face_down = (sort_cards((*face_down[0], *down)), face_down[1])
        tricks = (p.tricks[0] + 1, p.tricks[1])
    else:
        piles = (piles[0], sort_cards((*piles[1], *up)))
        if down:
            face_down = (face_down[0], sort_cards((*face_down[1], *down)))
        tricks = (p.tricks[0], p.tricks[1] + 1)
    draw = 0
    if p.unknown_stock:
        draw = min(p.unknown_stock, 4 * (4 - len(p.hands[winner])))
    return winner, piles, face_down, tricks, draw


def _do_settle(p: Position) -> Position:
    winner, piles, face_down, tricks, draw = _settled(p)
    return new_position(
        p.options,
        p.dealer,
        winner,
        p.indicator,
        p.hands,
        p.stock,
        p.unknown_stock,
        (),
        piles,
        face_down,
        tricks,
        draw,
    )


def _due_draws(p: Position) -> list[tuple[int, Card]]:
    """The draws a known stock gives after a trick (R15)."""
    return _known_draws(p.leader, p.hands, p.stock)


def _known_draws(leader: int, hands: Hands, stock: tuple[Card, ...]) -> list[tuple[int, Card]]:
    count = min(len(stock), 4 * (4 - len(hands[leader])))
    return list(zip(_draw_seats(leader, count), stock[:count], strict=True))


def _drawn_hands(hands: Hands, draws: Sequence[tuple[int, Card]]) -> Hands:
    """The hands after ``draws``, each in canonical order again."""
    drawn: list[list[Card]] = [[], [], [], []]
    for seat, card in draws:
        drawn[seat].append(card)
    h0, h1, h2, h3 = hands
    d0, d1, d2, d3 = drawn
    return (
        sort_cards((*h0, *d0)) if d0 else h0,
        sort_cards((*h1, *d1)) if d1 else h1,
        sort_cards((*h2, *d2)) if d2 else h2,
        sort_cards((*h3, *d3)) if d3 else h3,
    )


def _do_draws(p: Position, draws: Sequence[tuple[int, Card]]) -> Position:
    n = len(draws)
    if p.unknown_stock:
        stock, unknown = p.stock, p.unknown_stock - n
    else:
        stock, unknown = p.stock[n:], 0
    return new_position(
        p.options,
        p.dealer,
        p.leader,
        p.indicator,
        _drawn_hands(p.hands, draws),
        stock,
        unknown,
        p.trick,
        p.piles,
        p.face_down,
        p.tricks,
        0,
    )


def play(position: Position, move: Move) -> Position:
    """Apply a move known to be legal, without checking it (python-chess's ``push``).

    Trick settlement and the draws from a known stock follow at once.
    """
    kind, seat = move.kind, move.seat
    if kind == CARDS:
        return _do_draws(
            position,
            list(zip(_draw_seats(position.leader, position.draw), move.cards, strict=True)),
        )
    assert seat is not None
    if kind == MOLODKA:
        if position.trick or seat != position.leader:
            return _do_declare(position, seat)
        kind = LEAD
        cards = position.hands[seat]
    else:
        cards = move.cards
    p = _do_play(position, seat, kind, cards)
    if len(p.trick) == 4:
        p = _do_settle(p)
        if p.stock:
            p = _do_draws(p, _due_draws(p))
    return p
