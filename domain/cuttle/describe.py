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
from domain.words import ENGLISH, Words


def _name(names: Sequence[str], seat: int | None, words: Words) -> str:
    if seat is None:
        return words.gettext("The scorer")
    return names[seat] if 0 <= seat < len(names) else f"P{seat}"


def describe_move(data: Mapping[str, Any], names: Sequence[str], words: Words = ENGLISH) -> str:
    """Return a one-sentence account of a ``MovePlayed`` (``names``: one per seat).

    ``words``: the reader's language (``domain.words``); cards are written as its
    decks print them.

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
        count = int(data["count"])
        return words.ngettext(
            "The scorer names {count} card that left the deck",
            "The scorer names {count} cards that left the deck",
            count,
        ).format(count=count)
    move = Move.from_text(text)
    who = _name(names, move.seat, words)
    if move.seven and move.card is not None and move.action == "scrap":
        return words.gettext("{who} scraps {card}, revealed by the seven").format(
            who=who, card=move.card.table(words)
        )
    return _sentence(move, who, names, words)


def _sentence(move: Move, who: str, names: Sequence[str], words: Words) -> str:
    action = move.action
    card = "" if move.card is None else move.card.table(words)
    if move.seven and card:
        # A seven's card is played from the deck, not the hand: said where the card is.
        card = words.gettext("{card} from the deck").format(card=card)
    target = "" if move.target is None else move.target.table(words)
    cards = " ".join(c.table(words) for c in move.cards)
    if action == "draw":
        return words.gettext("{who} draws a card").format(who=who)
    if action == "pass":
        return words.gettext("{who} passes").format(who=who)
    if action == "points":
        return words.gettext("{who} plays {card} for points").format(who=who, card=card)
    if action == "scuttle":
        return words.gettext("{who} scuttles {target} with {card}").format(
            who=who, target=target, card=card
        )
    if action == "glasses":
        return words.gettext("{who} plays {card} as glasses").format(who=who, card=card)
    if action in ("queen", "king"):
        return words.gettext("{who} plays {card} as a permanent").format(who=who, card=card)
    if action == "jack":
        return words.gettext("{who} plays {card} to take {target}").format(
            who=who, card=card, target=target
        )
    if action == "joker":
        return words.pgettext("joker", "{who} plays {card} to take {target}").format(
            who=who, card=card, target=target
        )
    if action == "oneoff":
        return _one_off(move, who, card, names, words)
    if action == "counter":
        return words.gettext("{who} counters with {card}").format(who=who, card=card)
    if action == "decline":
        return words.gettext("{who} declines to counter").format(who=who)
    if action == "take":
        return words.gettext("{who} takes {card} from the scrap").format(who=who, card=card)
    if action == "discard":
        if not cards:
            return words.gettext("{who} discards nothing").format(who=who)
        return words.gettext("{who} discards {cards}").format(who=who, cards=cards)
    if action == "scrap":
        return words.gettext("{who} scraps {card}").format(who=who, card=card)
    if action == "resign":
        return words.gettext("{who} resigns the round").format(who=who)
    if action == "offer-draw":
        return words.gettext("{who} offers a draw").format(who=who)
    if action == "accept-draw":
        return words.gettext("{who} accepts the draw").format(who=who)
    if action == "refuse-draw":
        return words.gettext("{who} refuses the draw").format(who=who)
    return words.gettext("The scorer names {cards}").format(cards=cards)


def _one_off(move: Move, who: str, card: str, names: Sequence[str], words: Words) -> str:
    assert move.card is not None
    rank = move.card.rank
    if move.target is not None:
        target = move.target.table(words)
        if rank == "9":
            sentence = words.gettext("{who} plays {card} as a one-off to return {target}")
        else:
            sentence = words.gettext("{who} plays {card} as a one-off to destroy {target}")
        return sentence.format(who=who, card=card, target=target)
    if rank == "4":
        if move.player is None:
            sentence = words.gettext(
                "{who} plays {card} as a one-off: the opponent discards two cards"
            )
            return sentence.format(who=who, card=card)
        sentence = words.gettext("{who} plays {card} as a one-off: {victim} discards two cards")
        return sentence.format(who=who, card=card, victim=_name(names, move.player, words))
    if rank == "A":
        sentence = words.gettext("{who} plays {card} as a one-off to scrap every point card")
    elif rank == "3":
        sentence = words.gettext("{who} plays {card} as a one-off to take a card from the scrap")
    elif rank == "5":
        sentence = words.gettext("{who} plays {card} as a one-off to draw")
    elif rank == "6":
        sentence = words.gettext("{who} plays {card} as a one-off to scrap every permanent")
    elif rank == "7":
        sentence = words.gettext("{who} plays {card} as a one-off to play from the deck")
    else:
        sentence = words.gettext("{who} plays {card} as a one-off")
    return sentence.format(who=who, card=card)


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
