"""Timeline sentences for Cuttle moves: "Ann scuttles 7♥ with 9♠".

Pure text building for replays. It works on a ``MovePlayed`` event's data as
stored, or as ``domain.stream.public_event_data`` redacted it while a match is
live (the scorer's ``cards`` then carries only a count), so a sentence never
names a card its data does not. Cards are written as the table draws them
(``domain.cards.table_text``); the notation is ``notation``'s.

>>> describe_move({'move': 'P0 scuttle 9S>7H'}, ['Ann', 'Bob'])
'Ann scuttles 7♥ with 9♠'
>>> describe_move({'move': 'cards', 'count': 2}, ['Ann', 'Bob'])
'The scorer names 2 cards that left the deck'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.cuttle.moves import Move

_ONE_OFF_EFFECTS = {
    "A": "to scrap every point card",
    "3": "to take a card from the scrap",
    "5": "to draw",
    "6": "to scrap every permanent",
    "7": "to play from the deck",
}


def _name(names: Sequence[str], seat: int | None) -> str:
    if seat is None:
        return "The scorer"
    return names[seat] if 0 <= seat < len(names) else f"P{seat}"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def describe_move(data: Mapping[str, Any], names: Sequence[str]) -> str:
    """Return a one-sentence account of a ``MovePlayed`` (``names``: one per seat).

    Raises:
        MalformedError (MALFORMED): the data's move is not Cuttle notation.

    >>> describe_move({'move': 'P1 oneoff 4S@P0'}, ['Ann', 'Bob'])
    'Bob plays 4♠ as a one-off: Ann discards two cards'
    >>> describe_move({'move': 'P0 seven jack JH>5S'}, ['Ann', 'Bob'])
    'Ann plays J♥ from the deck to take 5♠'
    >>> describe_move({'move': 'P2 joker X1>QS'}, ['Ann', 'Bob', 'Cy'])
    'Cy plays ★1 to take Q♠'
    """
    text = str(data.get("move", ""))
    if text.split()[:1] == ["cards"] and "count" in data:
        return f"The scorer names {_plural(int(data['count']), 'card')} that left the deck"
    move = Move.from_text(text)
    who = _name(names, move.seat)
    sentence = _sentence(move, who, names)
    if not move.seven or move.card is None:
        return sentence
    card = move.card.table()
    if move.action == "scrap":
        return f"{who} scraps {card}, revealed by the seven"
    return sentence.replace(card, f"{card} from the deck", 1)


def _sentence(move: Move, who: str, names: Sequence[str]) -> str:
    action = move.action
    card = "" if move.card is None else move.card.table()
    target = "" if move.target is None else move.target.table()
    cards = " ".join(c.table() for c in move.cards)
    if action == "draw":
        return f"{who} draws a card"
    if action == "pass":
        return f"{who} passes"
    if action == "points":
        return f"{who} plays {card} for points"
    if action == "scuttle":
        return f"{who} scuttles {target} with {card}"
    if action == "glasses":
        return f"{who} plays {card} as glasses"
    if action in ("queen", "king"):
        return f"{who} plays {card} as a permanent"
    if action in ("jack", "joker"):
        return f"{who} plays {card} to take {target}"
    if action == "oneoff":
        return _one_off(move, who, names)
    if action == "counter":
        return f"{who} counters with {card}"
    if action == "decline":
        return f"{who} declines to counter"
    if action == "take":
        return f"{who} takes {card} from the scrap"
    if action == "discard":
        return f"{who} discards {cards}" if cards else f"{who} discards nothing"
    if action == "scrap":
        return f"{who} scraps {card}"
    if action == "resign":
        return f"{who} resigns the round"
    if action == "offer-draw":
        return f"{who} offers a draw"
    if action == "accept-draw":
        return f"{who} accepts the draw"
    if action == "refuse-draw":
        return f"{who} refuses the draw"
    return f"The scorer names {cards}"


def _one_off(move: Move, who: str, names: Sequence[str]) -> str:
    assert move.card is not None
    card = move.card.table()
    rank = move.card.rank
    if move.target is not None:
        verb = "to return" if rank == "9" else "to destroy"
        return f"{who} plays {card} as a one-off {verb} {move.target.table()}"
    if rank == "4":
        victim = "the opponent" if move.player is None else _name(names, move.player)
        return f"{who} plays {card} as a one-off: {victim} discards two cards"
    effect = _ONE_OFF_EFFECTS.get(rank, "")
    return f"{who} plays {card} as a one-off {effect}".rstrip()


def notation(data: Mapping[str, Any]) -> str:
    """Return the notation of a ``MovePlayed``; a redacted ``cards`` shows only its count.

    >>> notation({'move': 'cards', 'count': 1})
    'cards (1 card)'
    >>> notation({'move': 'P0 draw'})
    'P0 draw'
    """
    text = str(data.get("move", ""))
    if text.split()[:1] == ["cards"] and "count" in data:
        count = int(data["count"])
        return f"cards ({count} card)" if count == 1 else f"cards ({count} cards)"
    return text


__all__ = ["describe_move", "notation"]
