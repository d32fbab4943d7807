"""A superset of candidate moves for a position, built without the engine's generator.

Every action kind with every card of the pack and no target; then, for the cards
of every zone (hands, table, scrap, revealed, a few unplaced ones), every table
card and a hand and a scrap card as targets, and every player. ``apply`` must accept exactly the
listed legal moves among them.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, islice, permutations
from typing import Any

from domain.cards import Card
from domain.cuttle import Move, Position
from domain.cuttle.state import pack, placed_cards
from domain.errors import MalformedError

NO_ARGS = ("draw", "pass", "decline", "resign", "offer-draw", "accept-draw", "refuse-draw")
ONE_CARD = ("points", "glasses", "queen", "king", "counter", "take")
WITH_TARGET = ("scuttle", "jack", "joker", "oneoff")
SEVEN_ACTIONS = ("points", "scuttle", "glasses", "queen", "king", "jack", "joker", "oneoff")


def _table(p: Position) -> list[Card]:
    cards = []
    for stack in (*p.stacks, *p.permanents):
        cards.append(stack.base)
        cards.extend(card for card, _ in stack.attached)
    return cards


def _mk(*args: Any, **kwargs: Any) -> Iterator[Move]:
    """Build a move, skipping shapes the notation cannot even express."""
    try:
        yield Move(*args, **kwargs)
    except MalformedError:
        return


def candidate_moves(p: Position) -> Iterator[Move]:
    """Yield a superset of the legal moves of ``p`` (duplicates removed by the caller)."""
    seats = range(p.players)
    unplaced = sorted(pack(p.variant) - set(placed_cards(p)), key=Card.text)
    hand_cards = sorted({c for hand in p.hands for c in hand}, key=Card.text)
    table = _table(p)
    scrap = sorted(p.scrap, key=Card.text)
    cards = [*hand_cards, *table, *scrap[:4], *p.revealed, *unplaced[:2]]
    if p.chain:
        cards.append(p.chain[0][0])
    targets: list[Card | None] = [None, *table, *hand_cards[:2], *scrap[:1]]
    for seat in seats:
        for action in NO_ARGS:
            yield from _mk(action, seat)
        for card in sorted(pack(p.variant), key=Card.text):
            for action in (*ONE_CARD, *WITH_TARGET):
                yield from _mk(action, seat, card)
            yield from _mk("scrap", seat, card, seven=True)
        for card in cards:
            for target in targets:
                if target is card:
                    continue
                for action in WITH_TARGET:
                    yield from _mk(action, seat, card, target)
            for player in seats:
                yield from _mk("oneoff", seat, card, player=player)
        for card in [*p.revealed, *hand_cards[:3]]:
            for target in targets:
                if target is card:
                    continue
                for action in SEVEN_ACTIONS:
                    yield from _mk(action, seat, card, target, seven=True)
            for player in seats:
                yield from _mk("oneoff", seat, card, player=player, seven=True)
        hand = sorted(p.hands[seat], key=Card.text)
        yield from _mk("discard", seat)
        for n in (1, 2, 3):
            for combo in combinations(hand, n):
                yield from _mk("discard", seat, cards=combo)
        for other in unplaced[:1] + scrap[:1]:
            yield from _mk("discard", seat, cards=(other,))
    for n in range(4):
        for combo in islice(permutations(unplaced, n), 300):
            yield from _mk("cards", None, cards=combo)
    yield from _mk("cards", None, cards=tuple(hand_cards[:1]))
