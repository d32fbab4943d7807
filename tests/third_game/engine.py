"""Draw high's hand: the position, its one move (``H0 draw``) and the engine's functions.

>>> p = initial_position({'dealer': 1, 'seats': 2, 'deck': '7H KS 2C'})
>>> to_act(p), [m.text() for m in legal_moves(p)]
((0,), ['H0 draw'])
>>> p = evolve(evolve(p, decide(p, 'H0 draw')[0]), Event('CardDrawn', {'seat': 1, 'card': 'KS'}))
>>> outcome(p)
1
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from domain.cards import Card, format_cards, parse_cards
from domain.errors import IllegalMoveError, MalformedError
from domain.events import Event
from domain.legal import LegalMoveView

SEAT_LETTER = "H"
ORDER = "23456789TJQKA"
"""Ranks low to high: the ace is high."""
SUIT_ORDER = "CDHS"


@dataclass(frozen=True, slots=True)
class Draw:
    """The one move: a seat draws the deck's top card."""

    seat: int

    @classmethod
    def from_text(cls, text: str) -> Draw:
        """Read ``H<seat> draw``.

        Raises:
            MalformedError (MALFORMED): anything else.
        """
        words = text.split()
        if len(words) != 2 or words[1] != "draw" or not words[0][1:].isdigit():
            raise MalformedError(f"{text!r} is not a move: write H0 draw", details={"move": text})
        if words[0][0] != SEAT_LETTER:
            raise MalformedError(f"{text!r} names no seat: write H0 draw", details={"move": text})
        return cls(int(words[0][1:]))

    def text(self) -> str:
        """Return the move's notation."""
        return f"{SEAT_LETTER}{self.seat} draw"


@dataclass(frozen=True, slots=True)
class Position:
    """A hand in progress: the deck left (top first) and each seat's drawn card."""

    dealer: int
    deck: tuple[Card, ...]
    shown: tuple[Card | None, ...]


def initial_position(setup: Mapping[str, Any]) -> Position:
    """Return a hand's start from its set-up (``dealer``, ``seats``, ``deck``)."""
    return Position(setup["dealer"], parse_cards(setup["deck"]), (None,) * setup["seats"])


def to_act(position: Position) -> tuple[int, ...]:
    """Return the seat to draw: the first without a card, from the dealer's left."""
    seats = len(position.shown)
    for step in range(1, seats + 1):
        seat = (position.dealer + step) % seats
        if position.shown[seat] is None:
            return (seat,)
    return ()


def decide(position: Position, move: str) -> list[Event]:
    """Return the ``CardDrawn`` a draw records.

    Raises:
        MalformedError (MALFORMED): not a move.
        IllegalMoveError (NOT_YOUR_TURN): another seat is to draw, or none is.
    """
    draw = Draw.from_text(move)
    if (draw.seat,) != to_act(position):
        raise IllegalMoveError(
            f"{move!r}: it is not that seat's turn to draw",
            code="NOT_YOUR_TURN",
            details={"move": move},
        )
    return [Event("CardDrawn", {"seat": draw.seat, "card": position.deck[0].text()})]


def evolve(position: Position, event: Event) -> Position:
    """Return the position after a ``CardDrawn``."""
    shown = list(position.shown)
    shown[event.data["seat"]] = Card.from_text(event.data["card"])
    return Position(position.dealer, position.deck[1:], tuple(shown))


def step(position: Position, move: str) -> tuple[list[Event], Position]:
    """Return a move's events and the position after them."""
    events = decide(position, move)
    return events, evolve(position, events[0])


def _strength(card: Card) -> tuple[int, int]:
    return ORDER.index(card.rank), SUIT_ORDER.index(card.suit)


def outcome(position: Position) -> int | None:
    """Return the seat that drew highest once every seat drew (``None`` before)."""
    if any(card is None for card in position.shown):
        return None
    cards = [card for card in position.shown if card is not None]
    return max(range(len(cards)), key=lambda seat: _strength(cards[seat]))


def _generate(position: Position) -> Iterator[Draw]:
    yield from (Draw(seat) for seat in to_act(position))


def _is_legal(position: Position, move: object) -> bool:
    return isinstance(move, Draw) and (move.seat,) == to_act(position)


def legal_moves(position: Position) -> LegalMoveView[Position, Draw]:
    """Return the legal moves: the seat to act's draw."""
    return LegalMoveView(position, _generate, _is_legal)


def view(position: Position) -> dict[str, Any]:
    """Return the table: each seat's drawn card (face up), the deck's count, who draws."""
    acting = to_act(position)
    return {
        "shown": [[] if card is None else [card.text()] for card in position.shown],
        "deck": len(position.deck),
        "turn": acting[0] if acting else None,
    }


def deck_text(cards: tuple[Card, ...]) -> str:
    """Return a deck as its set-up keeps it: one string, top first."""
    return format_cards(cards)


__all__ = [
    "Draw",
    "Position",
    "decide",
    "deck_text",
    "evolve",
    "initial_position",
    "legal_moves",
    "outcome",
    "step",
    "to_act",
    "view",
]
