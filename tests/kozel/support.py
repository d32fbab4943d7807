"""Helpers shared by the Kozel tests: building positions and playing them out."""

from __future__ import annotations

import random
import re
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


def make_position(
    hands: str,
    *,
    leader: int = 0,
    dealer: int = 3,
    trump: str = "9H",
    trick: str = "-",
    rest: str = "stock",
    rules: str = "",
) -> Position:
    """A position with the given hands (``/``-separated, seat 0 first) and trick.

    Every other card goes to the stock in pack order (``rest='stock'``), to team A's
    pile (``rest='pile'``), or stays unknown (``rest='unknown'``, a physical deck).
    """
    placed = {c for part in (hands, trick) for c in parse_cards(_codes(part))}
    others = [c for c in PACK if c not in placed]
    cards = ",".join(c.text() for c in others) or "-"
    hands_field = "/".join(",".join(h.split()) or "-" for h in hands.split("/"))
    stock, piles, tricks = "-", "-/-", "0/0"
    if rest == "stock":
        stock = cards
    elif rest == "pile":
        piles, tricks = f"{cards}/-", f"{max(1, -(-len(others) // 16))}/0"
    else:
        stock = f"?{len(others)}"
    text = (
        f"dealer={dealer} leader={leader} trump={trump} hands={hands_field} stock={stock} "
        f"trick={trick} piles={piles} tricks={tricks}"
    )
    if rules:
        text += f" rules={rules}"
    return Position.from_text(text)


def _codes(text: str) -> list[str]:
    return re.findall(r"[6-9TJQKA][CDHS]", text)
