"""Kozel random playouts: one deal from a random deck order, random legal moves to the end."""

from __future__ import annotations

import random

from domain.kozel import DealSetup, KozelOptions, Position, initial_position, legal_moves, play
from domain.kozel.pack import PACK

VARIANTS = ("default", "bottom")
_OPTIONS = {
    "default": KozelOptions(),
    "bottom": KozelOptions(trump_indicator_bottom=True),
}


def play_round(rng: random.Random, variant: str) -> int:
    """Play one deal with uniformly random legal moves; return the moves applied.

    Moves come from ``legal_moves``, so they are applied with the unchecked ``play``
    (as python-chess's perft uses ``push``); ``apply`` adds the §13 checks.
    """
    deck = list(PACK)
    rng.shuffle(deck)
    setup = DealSetup(
        _OPTIONS[variant],
        dealer=rng.randrange(4),
        leader=rng.randrange(4),
        deck=tuple(deck),
        indicator_position=rng.randrange(20),
    )
    position: Position = initial_position(setup)
    moves = 0
    while True:
        candidates = list(legal_moves(position))
        if not candidates:
            return moves
        position = play(position, rng.choice(candidates))
        moves += 1
