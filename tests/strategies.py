"""Hypothesis strategies shared by the test suites, one clearly named section per subject."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from domain.cards import deck
from domain.cuttle import Move, Position, RoundSetup, Variant, initial_position, legal_moves
from domain.cuttle.rules import apply

# --- Cuttle ----------------------------------------------------------------------------

CUTTLE_MOVE_CAP = 600
"""Playouts stop here: classic rounds may loop for ever (ruling 36)."""
CUTTLE_SKIP = frozenset({"resign", "offer-draw"})


def cuttle_setup(variant: Variant, rng: random.Random, dealer: int | None = None) -> RoundSetup:
    """A round set-up from a deck shuffled by ``rng`` (and a random dealer unless given)."""
    cards = list(deck(jokers=variant is Variant.CUTTHROAT))
    rng.shuffle(cards)
    seat = rng.randrange(variant.players) if dealer is None else dealer
    return RoundSetup(variant, seat, deck=tuple(cards))


def cuttle_playout(
    variant: Variant, rng: random.Random, cap: int = CUTTLE_MOVE_CAP
) -> list[tuple[Position, Move | None]]:
    """Play random legal moves (no resignations or draw offers) from a random deal.

    Returns every position reached, each with the move played from it (``None`` for
    the last one).
    """
    position = initial_position(cuttle_setup(variant, rng))
    steps: list[tuple[Position, Move | None]] = []
    while position.result is None and len(steps) < cap:
        choices = [m for m in legal_moves(position) if m.action not in CUTTLE_SKIP]
        move = rng.choice(choices)
        steps.append((position, move))
        position = apply(position, move)
    steps.append((position, None))
    return steps


cuttle_variants = st.sampled_from(list(Variant))


@st.composite
def cuttle_playouts(draw: st.DrawFn) -> list[tuple[Position, Move | None]]:
    """A random playout in a random variant."""
    variant = draw(cuttle_variants)
    seed = draw(st.integers(0, 2**32 - 1))
    return cuttle_playout(variant, random.Random(seed))


@st.composite
def cuttle_positions(draw: st.DrawFn) -> Position:
    """A position reached by a random playout."""
    steps = draw(cuttle_playouts())
    index = draw(st.integers(0, len(steps) - 1))
    return steps[index][0]
