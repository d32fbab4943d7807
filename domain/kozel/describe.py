"""Timeline sentences for Kozel moves: "Ann leads 7♠ K♠".

Pure text building for replays. Each function takes an engine event's data as
stored, or as ``domain.stream.public_event_data`` redacted it while a match is
live (face-down throws and drawn cards then carry only counts), so a sentence
never names a card its data does not.

>>> describe_move('CardsThrown', {'seat': 1, 'count': 2}, ['Ann', 'Bob', 'Cy', 'Di'])
'Bob throws 2 cards face down'
>>> describe_move('MatchResigned', {'seat': 1}, ['Ann', 'Bob', 'Cy', 'Di'])
'Bob concedes the match: Bob and Di lose it'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.cards import table_cards, table_text
from domain.words import ENGLISH, Words

MOVE_EVENTS = frozenset(
    {"CardsLed", "CardsBeaten", "CardsThrown", "MolodkaDeclared", "CardsDrawn", "MatchResigned"}
)
"""Events that record a move (``CardsDrawn`` only when a scorer names the draws;
``MatchResigned`` is a concession, R47)."""

_VERBS = {"CardsLed": "lead", "CardsBeaten": "beat", "CardsThrown": "throw"}


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"S{seat}"


def _cards(data: Mapping[str, Any]) -> list[str]:
    return [str(c) for c in data.get("cards") or []]


def notation(kind: str, data: Mapping[str, Any]) -> str | None:
    """Return a move's notation from its event data; hidden cards become a count.

    >>> notation('CardsLed', {'seat': 2, 'cards': ['7S', 'KS']})
    'S2 lead 7S KS'
    >>> notation('CardsThrown', {'seat': 3, 'count': 1})
    'S3 throw (1 card)'
    >>> notation('TrickTaken', {'winner': 1}) is None
    True
    """
    if kind in _VERBS:
        cards = _cards(data)
        shown = " ".join(cards) if cards else _hidden(int(data.get("count", 0)))
        return f"S{data['seat']} {_VERBS[kind]} {shown}"
    if kind == "MolodkaDeclared":
        return f"S{data['seat']} molodka"
    if kind == "MatchResigned":
        return f"S{data['seat']} concede"
    if kind == "CardsDrawn":
        named = [str(card) for _, card in data["draws"]]
        if all(card != "None" for card in named):
            return "cards " + " ".join(named)
        return f"cards {_hidden(len(named))}"
    return None


def _hidden(count: int) -> str:
    return f"({count} card)" if count == 1 else f"({count} cards)"


def describe_move(
    kind: str, data: Mapping[str, Any], names: Sequence[str], words: Words = ENGLISH
) -> str | None:
    """Return a one-sentence account of a move event (``names``: one per seat), or ``None``.

    ``None`` means the event records no move (a trick taken, a deal started).
    ``words``: the reader's language (``domain.words``).

    >>> describe_move('CardsLed', {'seat': 0, 'cards': ['7S', 'KS']}, ['Ann', 'Bob', 'Cy', 'Di'])
    'Ann leads 7♠ K♠'
    >>> describe_move('CardsBeaten', {'seat': 1, 'cards': ['AS']}, ['Ann', 'Bob', 'Cy', 'Di'])
    'Bob beats with A♠'
    >>> describe_move('CardsThrown', {'seat': 2, 'cards': ['TC', '6H']}, ['Ann', 'Bob', 'Cy', 'Di'])
    'Cy throws 10♣ 6♥'
    """
    who = _name(names, data["seat"]) if "seat" in data else ""
    if kind == "CardsLed":
        cards = table_cards(_cards(data), words)
        return words.gettext("{who} leads {cards}").format(who=who, cards=cards)
    if kind == "CardsBeaten":
        cards = table_cards(_cards(data), words)
        return words.gettext("{who} beats with {cards}").format(who=who, cards=cards)
    if kind == "CardsThrown":
        if _cards(data):
            cards = table_cards(_cards(data), words)
            return words.gettext("{who} throws {cards}").format(who=who, cards=cards)
        count = int(data.get("count", 0))
        return words.ngettext(
            "{who} throws {count} card face down", "{who} throws {count} cards face down", count
        ).format(who=who, count=count)
    if kind == "MolodkaDeclared":
        return words.gettext("{who} declares molodka").format(who=who)
    if kind == "MatchResigned":
        partner = _name(names, (data["seat"] + 2) % 4)
        sentence = words.gettext("{who} concedes the match: {who} and {partner} lose it")
        return sentence.format(who=who, partner=partner)
    if kind == "CardsDrawn":
        draws = data["draws"]
        if any(card is None for _, card in draws):
            count = len(draws)
            return words.ngettext(
                "The scorer records {count} card drawn from the stock",
                "The scorer records {count} cards drawn from the stock",
                count,
            ).format(count=count)
        drawn = words.gettext("{who} {card}")
        listed = words.pgettext("list", ", ").join(
            drawn.format(who=_name(names, seat), card=table_text(card, words))
            for seat, card in draws
        )
        return words.gettext("The scorer names the cards drawn: {draws}").format(draws=listed)
    return None


__all__ = ["MOVE_EVENTS", "describe_move", "notation"]
