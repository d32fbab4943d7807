"""Helpers shared by the Kozel tests: building positions and playing them out."""

from __future__ import annotations

import random
from collections.abc import Iterator

from domain.cards import parse_cards
from domain.kozel import (
    DealSetup,
    KozelOptions,
    Move,
    Position,
    apply,
    initial_position,
    legal_moves,
)
from domain.kozel.pack import PACK


def deck_order(seed: int) -> tuple:  # type: ignore[type-arg]
    """A shuffled deck, reproducible from ``seed``."""
    cards = list(PACK)
    random.Random(seed).shuffle(cards)
    return tuple(cards)


def new_deal(
    seed: int = 0,
    *,
    options: KozelOptions | None = None,
    dealer: int = 0,
    leader: int | None = None,
    indicator_position: int = 7,
) -> Position:
    """A fresh deal from a seeded shuffle."""
    setup = DealSetup(
        options or KozelOptions(),
        dealer,
        (dealer + 1) % 4 if leader is None else leader,
        deck=deck_order(seed),
        indicator_position=indicator_position,
    )
    return initial_position(setup)


def setup_from_text(
    hands: str, stock: str, *, dealer: int = 0, leader: int = 1, indicator_position: int = 0
) -> DealSetup:
    """A known-deck setup whose dealt hands (seat 0 first, ``/``-separated) are as given.

    ``stock`` is the 20-card stock, top first.
    """
    groups = [parse_cards(h) for h in hands.split("/")]
    deck = [groups[(dealer + 1 + i) % 4][i // 4] for i in range(16)]
    return DealSetup(
        KozelOptions(),
        dealer,
        leader,
        deck=(*deck, *parse_cards(stock)),
        indicator_position=indicator_position,
    )


def m(text: str) -> Move:
    return Move.from_text(text)


def playout(position: Position, rng: random.Random) -> Iterator[tuple[Position, Move]]:
    """Yield (position, move) for random legal moves until the deal is played out."""
    while True:
        moves = list(legal_moves(position))
        if not moves:
            return
        move = rng.choice(moves)
        yield position, move
        position = apply(position, move)
