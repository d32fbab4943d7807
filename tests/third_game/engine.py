"""Draw high's hand: each seat in turn, from the dealer's left, draws the deck's top card."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from domain.cards import Card, parse_cards
from domain.errors import IllegalMoveError, MalformedError
from domain.events import Event
from domain.legal import LegalMoveView


@dataclass(frozen=True, slots=True)
class Draw:
    """The one move: ``seat`` draws the deck's top card (``H1 draw``)."""

    seat: int

    def text(self) -> str:
        """Return the move's notation."""
        return f"H{self.seat} draw"


@dataclass(frozen=True, slots=True)
class Position:
    """A hand: its dealer, the deck left (top first), the card each seat drew."""

    dealer: int
    deck: tuple[Card, ...]
    shown: tuple[Card | None, ...]


def initial_position(setup_data: Mapping[str, Any]) -> Position:
    """Return a hand's start from its set-up (``dealer``, ``seats``, ``deck``)."""
    deck = parse_cards(setup_data["deck"])
    return Position(setup_data["dealer"], deck, (None,) * setup_data["seats"])


def to_act(position: Position) -> tuple[int, ...]:
    """Return the first seat from the dealer's left yet to draw (none once all drew)."""
    seats = len(position.shown)
    order = [(position.dealer + step) % seats for step in range(1, seats + 1)]
    return next(((seat,) for seat in order if position.shown[seat] is None), ())


def decide(position: Position, move: str) -> list[Event]:
    """Return the ``CardDrawn`` of a draw.

    Raises:
        MalformedError (MALFORMED): not ``H<seat> draw``.
        IllegalMoveError (NOT_YOUR_TURN): not the draw of the seat to act.
    """
    if re.fullmatch(r"H\d+ draw", move) is None:
        raise MalformedError(f"{move!r} is not a move: write H0 draw", details={"move": move})
    acting = to_act(position)
    if [Draw(seat).text() for seat in acting] != [move]:
        raise IllegalMoveError(f"{move!r}: not that seat's turn", code="NOT_YOUR_TURN")
    return [Event("CardDrawn", {"seat": acting[0], "card": position.deck[0].text()})]


def evolve(position: Position, event: Event) -> Position:
    """Return the position after a ``CardDrawn``: the deck's top card shown by the seat."""
    shown = list(position.shown)
    shown[event.data["seat"]] = position.deck[0]
    return Position(position.dealer, position.deck[1:], tuple(shown))


def outcome(position: Position) -> int | None:
    """Return the seat that drew highest (aces high, then suits C<D<H<S), once all drew."""
    cards = [card for card in position.shown if card is not None]
    strength = [("23456789TJQKA".index(card.rank), card.suit) for card in cards]
    return None if to_act(position) else strength.index(max(strength))


def legal_moves(position: Position) -> LegalMoveView[Position, Draw]:
    """Return the seat to act's draw."""
    draws = [Draw(seat) for seat in to_act(position)]
    return LegalMoveView(position, lambda _: iter(draws), lambda _, move: move in draws)


def view(position: Position, seat: int | None) -> dict[str, Any]:
    """Return the table, the same for every seat: drawn cards (face up), the deck's count."""
    shown = [[] if card is None else [card.text()] for card in position.shown]
    return {"shown": shown, "deck": len(position.deck), "turn": next(iter(to_act(position)), None)}
