"""``domain.stream.choices``: each move's seat, cards and target, read against its notation.

The oracle reads a move's notation with a regular expression of its own (what the
pad contract says each field holds); random server-dealt matches must meet every
kind of target (scuttle, jack, a two's or nine's one-off, a cutthroat four at a
player, a three's take, a seven's revealed card) for the test to count.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from domain.stream import CreateMatch, MatchConfig, MatchState, Play, choices, step
from tests.recording.play import shuffled_deal

NAMES = ["Ann", "Bob", "Cy", "Di"]
_CARD = r"[0-9A-Z]{2}"
_CUTTLE = re.compile(
    rf"P(?P<seat>\d)(?P<seven> seven)? (?P<action>[a-z-]+)"
    rf"(?: (?P<card>{_CARD})(?:>(?P<target>{_CARD}))?(?:@P(?P<player>\d))?)?"
    rf"(?P<list>(?: {_CARD})*)"
)


def expected_parts(move: str) -> dict[str, Any]:
    """The seat, cards and target a move's notation names (the pad contract's reading)."""
    if move.startswith("cards "):
        return {"seat": None, "cards": move.split()[1:], "target_card": None, "target_seat": None}
    if move.startswith("S"):  # Kozel: S1 lead 7S KS, S3 molodka, S0 concede
        seat, _, *cards = move.split()
        return {"seat": int(seat[1]), "cards": cards, "target_card": None, "target_seat": None}
    found = _CUTTLE.fullmatch(move)
    assert found is not None, move
    cards = ([found["card"]] if found["card"] else []) + found["list"].split()
    target = found["target"]
    if found["action"] == "take":  # a three's: the card is taken from the scrap
        cards, target = [], found["card"]
    return {
        "seat": int(found["seat"]),
        "cards": cards,
        "target_card": target,
        "target_seat": None if found["player"] is None else int(found["player"]),
    }


def _kind(move: str) -> str | None:
    found = _CUTTLE.fullmatch(move)
    if found is None:
        return None
    if found["seven"]:
        return "seven"
    if found["action"] == "oneoff" and found["target"]:
        return "oneoff>"
    if found["action"] == "oneoff" and found["player"]:
        return "oneoff@"
    return found["action"]


@pytest.mark.parametrize(
    ("game", "variant", "seats", "matches"),
    [("cuttle", "standard", 2, 12), ("cuttle", "cutthroat", 3, 12), ("kozel", "default", 4, 2)],
)
def test_choices_follow_the_notation(game: str, variant: str, seats: int, matches: int) -> None:
    rng = random.Random(11)
    met: set[str | None] = set()
    for _ in range(matches):
        config = MatchConfig(game, variant, tuple(NAMES[:seats]), 0, "server", "quick", {})
        if game == "kozel":
            config = MatchConfig(game, variant, tuple(NAMES), 0, "server", None, {})
        state = step(MatchState(), CreateMatch(config, shuffled_deal(game, variant, rng)))[1]
        for _ in range(400):
            if state.is_over or state.position is None:
                break
            rules = state.rules
            moves = list(rules.legal_moves(state.position))
            listed = choices(state, moves, NAMES[:seats])
            service = choices(state, rules.service_moves(state.position), NAMES[:seats])
            assert [m.text() for m in moves] == [c.move for c in listed]
            for choice in listed + service:
                parts = choice.parts
                got = {
                    "seat": parts.seat,
                    "cards": [c.text() for c in parts.cards],
                    "target_card": None if parts.target_card is None else parts.target_card.text(),
                    "target_seat": parts.target_seat,
                }
                assert expected_parts(choice.move) == got
                assert NAMES[parts.seat or 0] in choice.sentence, choice
                met.add(_kind(choice.move))
            deal = shuffled_deal(game, variant, rng)
            state = step(state, Play(rng.choice(moves).text(), deal))[1]
    if game == "cuttle":
        wanted = {"scuttle", "jack", "oneoff>", "take", "seven", "discard"}
        if variant == "cutthroat":
            wanted.add("oneoff@")
        assert wanted <= met
