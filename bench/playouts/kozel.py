"""Kozel random playouts: one deal from a random deck order, random legal moves to the end.

Variants:

- ``default``: a known deck order, default rules; moves from ``legal_moves`` are
  applied with the unchecked ``play`` (as python-chess's perft uses ``push``).
- ``bottom``: the same with ``trump_indicator_bottom``.
- ``physical``: a physical deck (R43): the stock is unknown and the scorer names the
  drawn cards with ``cards`` after every trick (R46).
- ``checked``: as ``default``, but every move goes through ``apply``, the §13 checks.
"""

from __future__ import annotations

import random

from domain.kozel import (
    DealSetup,
    KozelOptions,
    Move,
    Position,
    apply,
    initial_position,
    legal_moves,
    play,
)
from domain.kozel.pack import PACK

VARIANTS = ("default", "bottom", "physical", "checked")
_OPTIONS = KozelOptions()
_BOTTOM = KozelOptions(trump_indicator_bottom=True)


def play_round(rng: random.Random, variant: str) -> int:
    """Play one deal with uniformly random legal moves; return the moves applied."""
    deck = list(PACK)
    rng.shuffle(deck)
    dealer = rng.randrange(4)
    options = _BOTTOM if variant == "bottom" else _OPTIONS
    setup = DealSetup(
        options, dealer, (dealer + 1) % 4, deck=tuple(deck), indicator_position=rng.randrange(20)
    )
    position: Position = initial_position(setup)
    hidden: list = []  # type: ignore[type-arg]
    if variant == "physical":
        hidden = list(position.stock)
        setup = DealSetup(
            options, dealer, setup.leader, hands=position.hands, indicator=position.indicator
        )
        position = initial_position(setup)
    step = apply if variant == "checked" else play
    moves = 0
    while True:
        if position.draw:
            named = Move("cards", None, tuple(hidden[: position.draw]))
            hidden = hidden[position.draw :]
            position = step(position, named)
            moves += 1
            continue
        candidates = list(legal_moves(position))
        if not candidates:
            return moves
        position = step(position, rng.choice(candidates))
        moves += 1
