"""A match's table drawn as text for ``matchlog replay``: names, suits, hands, table, score.

It draws what the engines' views hold (``GameRules.view``): the public view, a
seat's view, or, once a match is over, the full view (every hand). Each game lays
its table out differently, so each has a drawer here, found by the game's name; a
game without one is drawn as its view's fields. Every line fits ``width``.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from domain.cards import SUIT_SYMBOLS, table_text


def stack(text: str) -> str:
    """Return a Cuttle stack: its base card, ``+`` each jack or joker on it.

    >>> stack('TH[JS:P1,JC:P0]'), stack('QS[X2:P1]')
    ('10♥+J♠+J♣', 'Q♠+★2')
    """
    base, _, attached = text.partition("[")
    jacks = [entry.split(":")[0] for entry in attached.rstrip("]").split(",") if entry]
    return "+".join(table_text(c) for c in [base, *jacks])


def cards(texts: Sequence[str]) -> str:
    """Return cards as the table draws them, space-separated; ``-`` for none."""
    return " ".join(map(table_text, texts)) or "-"


@dataclass(frozen=True, slots=True)
class Seen:
    """What a drawing shows: the view, every hand it may show, the players' names."""

    view: dict[str, Any]
    hands: dict[int, list[str]]
    """Cards by seat: the seat's own in a seat's view, every seat's in the full view."""
    names: Sequence[str]
    width: int

    def who(self, seat: int, letter: str) -> str:
        """Return a seat as the table names it: its tag and its player's name."""
        return f"{letter}{seat} {self.names[seat]}".rstrip()

    def field(self, label: str, text: str, indent: int = 2) -> list[str]:
        """Return ``label: text`` wrapped to the width, wrapped lines under the text."""
        head = " " * indent + f"{label}: "
        return textwrap.wrap(
            text,
            width=self.width,
            initial_indent=head,
            subsequent_indent=" " * len(head),
            break_on_hyphens=False,
        ) or [head.rstrip()]


def _hand(seen: Seen, seat: int, count: int) -> str:
    if seat in seen.hands:
        return cards(seen.hands[seat])
    return f"{count} card" + ("" if count == 1 else "s")


def draw_cuttle(seen: Seen) -> list[str]:
    """Draw a Cuttle table: each seat's hand, points and royals, then deck and scrap."""
    view = seen.view
    to_act = set(view["to_act"])
    lines = []
    for entry in view["hands"]:
        seat = entry["seat"]
        mark = "  ◀ to act" if seat in to_act and view["result"] is None else ""
        total, goal = view["totals"][seat], view["goals"][seat]
        lines.append(f"{seen.who(seat, 'P')} · {total} of {goal} points{mark}")
        lines += seen.field("hand", _hand(seen, seat, entry["count"]))
        mine = [stack(s["stack"]) for s in view["points"] if s["controller"] == seat]
        royals = [stack(s["stack"]) for s in view["permanents"] if s["controller"] == seat]
        lines += seen.field("points", " ".join(mine) or "-")
        lines += seen.field("royals", " ".join(royals) or "-")
    deck = view["deck"]
    top = f" (top: {cards(deck['top'])})" if deck["top"] else ""
    lines.append(f"deck: {deck['count']} cards{top}")
    lines += seen.field("scrap", cards(view["scrap"]), indent=0)
    if view["chain"]:
        chain = " → ".join(f"{table_text(c['card'])} (P{c['seat']})" for c in view["chain"])
        lines += seen.field("chain", chain, indent=0)
    for label in ("frozen", "revealed"):
        if view[label]:
            lines += seen.field(label, cards(view[label]), indent=0)
    lines.append(f"phase: {view['phase'].lower().replace('_', ' ')}")
    return lines


def draw_kozel(seen: Seen) -> list[str]:
    """Draw a Kozel table: trump, each seat's hand and team, the trick, the piles."""
    view = seen.view
    lines = [
        f"trump: {SUIT_SYMBOLS.get(view['trump'], view['trump'])}"
        f" (indicator {table_text(view['indicator'])})"
        f" · stock: {view['stock']} · dealer: S{view['dealer']}"
    ]
    for seat, count in enumerate(view["hand_sizes"]):
        mark = "  ◀ to play" if view["to_play"] == seat else ""
        lines.append(f"{seen.who(seat, 'S')} · team {'AB'[seat % 2]}{mark}")
        lines += seen.field("hand", _hand(seen, seat, count))
    plays = [
        f"S{p['seat']} {p['kind']} " + (cards(p["cards"]) if "cards" in p else f"{p['count']} ▢")
        for p in view["trick"]
    ]
    lines += seen.field("trick", " · ".join(plays) or "-", indent=0)
    for team, pile in enumerate(view["piles"]):
        down = pile.get("face_down_cards")  # only in a finished match's record view
        hidden = f"{pile['face_down']} face down" if down is None else f"face down {cards(down)}"
        took = f"{view['tricks'][team]} tricks, {hidden}"
        lines += seen.field(f"team {'AB'[team]} took", f"{took}; {cards(pile['face_up'])}", 0)
    if "card_points" in view:
        a, b = view["card_points"]
        lines.append(f"card points: team A {a}, team B {b}")
    return lines


def draw_fields(seen: Seen) -> list[str]:
    """Draw any view as its fields, one a line (a game with no drawer of its own)."""
    lines = []
    for key, value in seen.view.items():
        if key != "seat":
            lines += seen.field(key, json.dumps(value, separators=(", ", ": ")))
    for seat, hand in seen.hands.items():
        lines += seen.field(f"seat {seat} hand", cards(hand))
    return lines


DRAWERS: dict[str, Callable[[Seen], list[str]]] = {"cuttle": draw_cuttle, "kozel": draw_kozel}
"""Each game's drawer, by the game's name."""


def draw(game: str, seen: Seen) -> list[str]:
    """Return the lines of a game's table as ``seen`` shows it."""
    return DRAWERS.get(game, draw_fields)(seen)


__all__ = ["DRAWERS", "Seen", "cards", "draw", "stack"]
