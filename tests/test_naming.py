"""Naming drawn cards the same way in both games (#29): one call, ``cards_to_name``.

The playout below is written against ``GameRules`` only: it deals, plays random legal
moves while ``legal_moves`` has any, and names drawn cards by sampling what
``cards_to_name`` offers, never by listing orderings. Every round of every game must
end there; before #29 a Kozel deal's ``legal_moves`` was empty while cards awaited
naming, so the loop stopped mid-deal.
"""

from __future__ import annotations

import random
from itertools import permutations
from typing import Any

import pytest

from domain.cards import format_cards
from domain.games import GAMES
from domain.stream import MatchConfig
from tests.recording.play import physical_deal, shuffled_deal

PLIES = 2000
"""More plies than any round has: a round still going after them never ends."""

SETTINGS = [
    (game, variant, options)
    for game, rules in GAMES.items()
    for variant in rules.variants
    for options in ([{}, {"trump_indicator_bottom": True}] if game == "kozel" else [{}])
]


def play_round(config: MatchConfig, deal: dict[str, Any], rng: random.Random) -> tuple[int, int]:
    """Play one round to its end through ``GameRules``; return its plies and namings."""
    rules = GAMES[config.game]
    series = rules.new_series(config)
    position = rules.initial_position(rules.setup_data(config, series, deal))
    plies = namings = 0
    while rules.legal_moves(position):
        assert plies < PLIES, "the round never ends"
        ask = rules.cards_to_name(position)
        if ask is None:
            move = rng.choice(list(rules.legal_moves(position))).text()
        else:
            assert ask.count == rules.cards_awaited(position)
            names = rng.sample(ask.candidates, ask.free) + ([ask.last] if ask.last else [])
            assert ask.is_naming(tuple(names))
            move = "cards " + format_cards(names)
            namings += 1
        _, position = rules.step(position, move)
        plies += 1
    assert rules.outcome(position) is not None, "legal_moves is empty in a live round"
    assert rules.cards_to_name(position) is None
    return plies, namings


@pytest.mark.parametrize(("game", "variant", "options"), SETTINGS)
def test_every_round_of_a_generic_playout_ends(
    game: str, variant: str, options: dict[str, Any]
) -> None:
    """Physical and known decks alike: each round ends, the physical ones after namings."""
    rules = GAMES[game]
    config = rules.validate(MatchConfig(game, variant, ("a", "b", "c", "d"), 0, options=options))
    config = MatchConfig(
        game, variant, config.players[: rules.seats(config)], 0, options=config.options
    )
    rng = random.Random(f"{game} {variant} {options}")
    named = 0
    for seed in range(12):
        physical = seed % 2 == 0
        dealer = rules.new_series(config).dealer
        deal = (
            physical_deal(game, variant, dealer, rng)
            if physical
            else shuffled_deal(game, variant, rng)
        )
        if physical and "indicator_position" in shuffled_deal(game, variant, rng):
            deal["indicator_position"] = 10
        _, namings = play_round(config, deal, rng)
        assert physical or 0 == namings
        named += namings
    assert named > 0


SIXTEEN = (
    "dealer=3 leader=0 trump=9H hands=-/-/-/- stock=?20 trick=-"
    " piles=6C,7C,8C,9C,JC,QC,KC,TC,AC,6D,7D,8D,9D,JD,QD,KD/- tricks=1/0 draw=16"
)
"""A physical Kozel deal after a trick of four-card plays: all 16 cards drawn await naming."""


def test_a_kozel_naming_of_sixteen_cards_is_counted_not_listed() -> None:
    """20!/4! namings: ``bool``, ``len`` and ``in`` answer at once, and the sample records."""
    rules = GAMES["kozel"]
    config = MatchConfig("kozel", "default", ("a", "b", "c", "d"), 3)
    setup = rules.setup_data(config, rules.new_series(config), {"position": SIXTEEN})
    position = rules.initial_position(setup)
    ask = rules.cards_to_name(position)
    assert ask is not None and (16, 20, None) == (ask.count, len(ask.candidates), ask.last)
    legal = rules.legal_moves(position)
    assert legal and 101_370_917_007_360_000 == len(legal) == ask.orderings()
    assert "101370917007360000 moves, not listed" in repr(legal)
    names = random.Random(1).sample(ask.candidates, ask.free)
    _, after = rules.step(position, "cards " + format_cards(names))
    assert rules.cards_to_name(after) is None and rules.legal_moves(after)


BOTTOM = (
    "dealer=3 leader=0 trump=9H hands=-/-/-/- stock=?4 trick=-"
    " piles=6C,7C,8C,9C,JC,QC,KC,TC,AC,6D,7D,8D,9D,JD,QD,KD"
    "/KH,TH,AH,6S,7S,8S,9S,JS,QS,KS,TS,AS,6H,7H,8H,JH tricks=1/1 draw=4 rules=12+bottom"
)
"""The stock's last four cards drawn, the indicator 9H under them (R32): it comes last."""


def test_the_namings_offered_are_exactly_those_the_engine_accepts() -> None:
    """Every ordering of the cards placed nowhere, 9H included, is tried against ``in``."""
    rules = GAMES["kozel"]
    options = {"trump_indicator_bottom": True}
    config = rules.validate(
        MatchConfig("kozel", "default", ("a", "b", "c", "d"), 3, options=options)
    )
    setup = rules.setup_data(config, rules.new_series(config), {"position": BOTTOM})
    position = rules.initial_position(setup)
    ask = rules.cards_to_name(position)
    assert ask is not None and "9H" == (ask.last and ask.last.text())
    unplaced = rules.unplaced_cards(position)
    legal = rules.legal_moves(position)
    accepted = {
        names
        for names in permutations(unplaced, ask.count)
        if any(m.text() == "cards " + format_cards(names) for m in legal)
    }
    offered = {names for names in permutations(unplaced, ask.count) if ask.is_naming(names)}
    assert accepted == offered == set(ask.generate_namings())
    assert 6 == len(accepted) == ask.orderings()
