"""What one seat, or a spectator, may see of a deal in progress (§12, R27, R32, R38, R39).

A view is built from the position alone and holds only what the table could see:
the seat's own hand, hand and stock sizes, the indicator card (never its stock
position, R32), the plays since the trick last restarted with face-down throws
shown as counts (their cards only to their owner, or to all with ``open_throws``),
the face-up cards each team has taken, trick counts, and, once the deal is played
out, the card points (R39).
"""

from __future__ import annotations

from typing import Any

from domain.kozel.facts import can_declare, outcome
from domain.kozel.moves import THROW
from domain.kozel.options import options_to_data
from domain.kozel.position import Position


def view(position: Position, seat: int | None) -> dict[str, Any]:
    """Return the JSON-ready view of ``seat`` (0-3), or the public view for ``None``.

    >>> from domain.kozel.position import EXAMPLE
    >>> v = view(Position.from_text(EXAMPLE), 1)
    >>> v['hand'], v['hand_sizes'], v['stock'], v['to_play']
    (['JC', 'QC', 'KC'], [3, 3, 4, 4], 20, 2)
    """
    open_throws = position.options.open_throws
    trick: list[dict[str, Any]] = []
    for play in position.trick:
        item: dict[str, Any] = {"seat": play.seat, "kind": play.kind, "count": len(play.cards)}
        if play.kind != THROW or open_throws or play.seat == seat:
            item["cards"] = [c.text() for c in play.cards]
        trick.append(item)
    piles: list[dict[str, Any]] = []
    for team in (0, 1):
        pile: dict[str, Any] = {
            "face_up": [c.text() for c in position.piles[team]],
            "face_down": len(position.face_down[team]),
        }
        if open_throws:
            pile["face_down_cards"] = [c.text() for c in position.face_down[team]]
        piles.append(pile)
    result: dict[str, Any] = {
        "seat": seat,
        "options": options_to_data(position.options),
        "dealer": position.dealer,
        "trump": position.indicator.suit,
        "indicator": position.indicator.text(),
        "leader": position.leader,
        "to_play": position.to_play,
        "hand_sizes": [len(h) for h in position.hands],
        "stock": position.stock_size,
        "cards_awaited": position.draw,
        "trick": trick,
        "piles": piles,
        "tricks": list(position.tricks),
    }
    if position.options.trump_indicator_bottom:
        # Under the stock, face up: whether it is still there is public (R32).
        result["indicator_in_stock"] = position.stock_size > 0
    if seat is not None:
        result["hand"] = [c.text() for c in position.hands[seat]]
        result["can_declare_molodka"] = can_declare(position, seat)
    played = outcome(position)
    if played is not None:
        result["card_points"] = list(played.card_points)
        result["last_trick_seat"] = played.last_trick_seat
    return result


def record_view(position: Position) -> dict[str, Any]:
    """Return the public view with every face-down throw face up, in the trick and the piles.

    Once the match is over its whole record may be shown (R44): the throws the
    table saw as backs are in the record, so a replay of a finished match shows them.

    >>> from dataclasses import replace
    >>> from domain.cards import Card
    >>> from domain.kozel.position import EXAMPLE
    >>> p = replace(Position.from_text(EXAMPLE), face_down=((Card.from_text("6S"),), ()))
    >>> view(p, None)["piles"][0], record_view(p)["piles"][0]
    ({'face_up': [], 'face_down': 1}, {'face_up': [], 'face_down': 1, 'face_down_cards': ['6S']})
    """
    result = view(position, None)
    for item, play in zip(result["trick"], position.trick, strict=True):
        item["cards"] = [c.text() for c in play.cards]
    for pile, down in zip(result["piles"], position.face_down, strict=True):
        pile["face_down_cards"] = [c.text() for c in down]
    return result


__all__ = ["record_view", "view"]
