"""Random legal Cuttle rounds for ``bench/engine_playout.py`` (one engine, three variants)."""

from __future__ import annotations

import random

from domain.cards import deck
from domain.cuttle import RoundSetup, Variant, initial_position
from domain.cuttle.rules import _check, _generate, _play  # noqa: F401

VARIANTS = tuple(v.value for v in Variant)
MOVE_CAP = 5_000
"""Classic rounds may loop without end (ruling 36); a playout stops here."""

_SKIP = frozenset({"resign", "offer-draw"})


def play_round(rng: random.Random, variant: str) -> int:
    """Play one random round from a shuffled deck; return the number of moves applied."""
    v = Variant(variant)
    cards = list(deck(jokers=v is Variant.CUTTHROAT))
    rng.shuffle(cards)
    position = initial_position(RoundSetup(v, rng.randrange(v.players), deck=tuple(cards)))
    moves = 0
    while position.result is None and moves < MOVE_CAP:
        choices = [m for m in _generate(position) if m.action not in _SKIP]
        position = _play(position, rng.choice(choices)).freeze()
        moves += 1
    return moves
