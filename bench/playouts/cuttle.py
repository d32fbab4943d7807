"""Random legal Cuttle rounds for ``bench/engine_playout.py`` (one engine, three variants)."""

from __future__ import annotations

import random

from domain.cards import deck
from domain.cuttle import RoundSetup, Variant, generate_moves, initial_position, push

VARIANTS = tuple(v.value for v in Variant)
MOVE_CAP = 5_000
"""Classic rounds may loop without end (ruling 36); a playout stops here."""
PACKS = {v.value: (v, deck(jokers=v is Variant.CUTTHROAT)) for v in Variant}
"""Each variant and its pack in deck order, built once (the shuffle starts from it)."""


def play_round(rng: random.Random, variant: str) -> int:
    """Play one random round from a shuffled deck; return the number of moves applied."""
    v, pack = PACKS[variant]
    cards = list(pack)
    rng.shuffle(cards)
    position = initial_position(RoundSetup(v, rng.randrange(v.players), deck=tuple(cards)))
    moves = 0
    while position.result is None and moves < MOVE_CAP:
        position = push(position, rng.choice(generate_moves(position, service=False)))
        moves += 1
    return moves
