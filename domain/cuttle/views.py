"""What one seat (or a spectator) of a Cuttle round may see (§9, §16)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from domain.cards import Card
from domain.cuttle.constants import _CLASSIC
from domain.cuttle.facts import cards_awaited, controller, goal, to_act, totals
from domain.cuttle.moves import card_key
from domain.cuttle.state import Position


def visible_hands(position: Position, seat: int | None) -> frozenset[int]:
    """Return the seats whose hands ``seat`` may see (§9, §16, rulings 31-32).

    ``None`` is a spectator: only a classic glasses-exposed hand.
    """
    variant = position.variant
    seen = set() if seat is None else {seat}
    for stack in position.permanents:
        if stack.base.rank != "8":
            continue
        owner = controller(stack, variant)
        if variant is _CLASSIC:
            seen.add(1 - owner)
        elif owner == seat:
            seen.update(s for s in range(position.players) if s != seat)
    return frozenset(seen)


def _cards(cards: Iterable[Card]) -> list[str]:
    return [c.text() for c in sorted(cards, key=card_key)]


def view(position: Position, seat: int | None) -> dict[str, Any]:
    """Return what ``seat`` may see, JSON-ready (``None``: the public spectator view).

    Own hand, hands shown by glasses, every hand's size, frozen cards, the table,
    the scrap, the deck size and the cards everyone saw on top of it, the open
    chain, a seven's revealed cards, and the result.
    """
    p = position
    variant = p.variant
    shown_hands = visible_hands(p, seat)
    hands = []
    for s, hand in enumerate(p.hands):
        entry: dict[str, Any] = {"seat": s, "count": len(hand)}
        if s in shown_hands:
            entry["cards"] = _cards(hand)
        hands.append(entry)
    result = p.result
    return {
        "variant": variant.value,
        "seat": seat,
        "dealer": p.dealer,
        "turn": p.turn,
        "phase": p.phase.value,
        "to_act": list(to_act(p)),
        "cards_awaited": cards_awaited(p),
        "deck": {
            "count": len(p.deck),
            "top": [c.text() for c in p.deck[: p.shown] if c is not None],
        },
        "hands": hands,
        "frozen": _cards(p.frozen),
        "points": [
            {"stack": s.text(), "owner": s.owner, "controller": controller(s, variant)}
            for s in p.stacks
        ],
        "permanents": [
            {"stack": s.text(), "owner": s.owner, "controller": controller(s, variant)}
            for s in p.permanents
        ],
        "scrap": _cards(p.scrap),
        "totals": list(totals(p)),
        "goals": [goal(p, s) for s in range(p.players)],
        "chain": [{"card": c.text(), "seat": s} for c, s in p.chain],
        "target": None if p.target is None else p.target.text(),
        "victim": p.victim,
        "responder": p.responder,
        "revealed": [c.text() for c in p.revealed],
        "passes": p.passes,
        "draw_refused": p.offer_refused,
        "result": None
        if result is None
        else {
            "termination": result.termination.value,
            "winner": result.winner,
            "resigned": result.resigned,
        },
    }
