"""Hypothesis strategies shared by the test suites, one clearly named section per subject."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import strategies as st

from domain.cards import deck
from domain.cuttle import Move, Position, RoundSetup, Variant, initial_position, legal_moves
from domain.cuttle.rules import apply

# --- Event store: JSON event data -------------------------------------------------

# I-JSON values (RFC 7493), which RFC 8785 canonicalises: integers within ±(2**53 - 1) and
# finite floats. Text excludes NUL, which jsonb refuses.
json_scalars: st.SearchStrategy[Any] = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**53 - 1), max_value=2**53 - 1),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00")),
)
json_values: st.SearchStrategy[Any] = st.recursive(
    json_scalars,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
event_data: st.SearchStrategy[dict[str, Any]] = st.dictionaries(
    st.text(max_size=8), json_values, max_size=5
)
stream_names: st.SearchStrategy[str] = st.builds(
    lambda game, rest: f"{game}-{rest}",
    st.sampled_from(["cuttle", "kozel"]),
    st.text(min_size=1, max_size=12).filter(lambda s: "\x00" not in s),
)


# --- Cuttle ----------------------------------------------------------------------------

CUTTLE_MOVE_CAP = 600
"""Playouts stop here: classic rounds may loop for ever (ruling 36)."""
CUTTLE_SKIP = frozenset({"resign", "offer-draw"})


def cuttle_setup(variant: Variant, rng: random.Random) -> RoundSetup:
    """A round set-up from a deck shuffled by ``rng``."""
    cards = list(deck(jokers=variant is Variant.CUTTHROAT))
    rng.shuffle(cards)
    return RoundSetup(variant, rng.randrange(variant.players), deck=tuple(cards))


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


# --- Game logs: simulated matches as canonical log lines ---------------------------------


@st.composite
def simulated_match_lines(draw: st.DrawFn) -> list[str]:
    """The canonical log lines of one random small match of any game and variant."""
    from cli.simulate import simulated_lines

    game, variant = draw(
        st.sampled_from(
            [
                ("cuttle", "classic"),
                ("cuttle", "standard"),
                ("cuttle", "cutthroat"),
                ("kozel", "default"),
            ]
        )
    )
    seed = draw(st.integers(min_value=0, max_value=2**32))
    fmt = "quick" if game == "cuttle" else None
    options: dict[str, Any] = {} if game == "cuttle" else {"loss_limit": 2}
    return list(simulated_lines(game, variant, 1, seed, fmt=fmt, options=options))
