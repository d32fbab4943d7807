"""A Cuttle round's set-up (§24), beside the position it starts.

``RoundSetup`` is how a round starts from data: a full deck order (top first), for a
physical deck the dealt hands, or a written position. The ``Position`` value and its
notation are ``domain.cuttle.position``'s, importable from here.

>>> from domain.cards import deck
>>> setup = RoundSetup(Variant.STANDARD, dealer=0, deck=deck())
>>> setup == RoundSetup.from_data(setup.to_data())
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from domain.cards import Card, parse_cards
from domain.cuttle.moves import card_key
from domain.cuttle.outcome import Variant
from domain.cuttle.position import (
    NAMING_KINDS,
    Phase,
    Position,
    PositionFields,
    Stack,
    _invalid,
    _is_pack,
    build_position,
    format_position,
    pack,
    parse_position,
    placed_cards,
)
from domain.errors import InvalidSetupError, MalformedError


@dataclass(frozen=True, slots=True)
class RoundSetup:
    """How a round starts: the variant, the dealer, and the deck order or the dealt hands.

    ``deck`` is the whole shuffled deck, top first (dealt as ruling 2 says);
    ``hands`` are the hands as dealt from a physical deck, one tuple per seat, and
    the rest of the deck stays unknown until the scorer names it (§24);
    ``position`` is a set-up position in the position notation (ruling 25), for a
    recording that starts mid-round.

    Raises:
        InvalidSetupError (INVALID_DECK): not exactly one of deck/hands/position, a
            deck that is not the variant's pack, or hands of the wrong sizes or cards.
        InvalidSetupError (INVALID_POSITION): a position that cannot be read, or whose
            variant or dealer differ from the set-up's.
    """

    variant: Variant
    dealer: int
    deck: tuple[Card, ...] | None = None
    hands: tuple[tuple[Card, ...], ...] | None = None
    position: str | None = None

    def __post_init__(self) -> None:
        players = self.variant.players
        if not 0 <= self.dealer < players:
            raise _bad_deck(f"P{self.dealer} is not a seat of {self.variant.value}")
        if sum(x is not None for x in (self.deck, self.hands, self.position)) != 1:
            raise _bad_deck(
                "a round set-up gives exactly one of the deck order, the dealt hands or a position"
            )
        if self.position is not None:
            start = parse_position(self.position)
            if (start.variant, start.dealer) != (self.variant, self.dealer):
                raise _invalid("the position's variant and dealer must match the set-up's")
        full = pack(self.variant)
        if self.deck is not None and not _is_pack(self.deck, full):
            raise _bad_deck(
                f"the deck must hold each of the {len(full)} cards of {self.variant.value} once"
            )
        if self.hands is not None:
            sizes = hand_sizes(self.variant, self.dealer)
            if tuple(len(h) for h in self.hands) != sizes:
                raise _bad_deck(f"dealt hands must hold {sizes} cards")
            cards = [c for h in self.hands for c in h]
            if len(set(cards)) != len(cards) or not set(cards) <= full:
                raise _bad_deck("dealt hands must hold distinct cards of the pack")

    def to_data(self) -> dict[str, Any]:
        """Return a JSON-ready dict (``from_data`` reads it back)."""
        data: dict[str, Any] = {"variant": self.variant.value, "dealer": self.dealer}
        if self.deck is not None:
            # ``format_cards`` without a method call a card: a set-up is written per round.
            data["deck"] = " ".join([c.rank + c.suit for c in self.deck])
        if self.hands is not None:
            data["hands"] = [" ".join([c.rank + c.suit for c in h]) for h in self.hands]
        if self.position is not None:
            data["position"] = self.position
        return data

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> RoundSetup:
        """Build a set-up from ``to_data`` output.

        Raises:
            InvalidSetupError (INVALID_DECK): missing or inconsistent fields.
        """
        try:
            variant = Variant(data["variant"])
            dealer = int(data["dealer"])
            deck_text = data.get("deck")
            hands = data.get("hands")
            position = data.get("position")
            return cls(
                variant,
                dealer,
                deck=None if deck_text is None else parse_cards(deck_text),
                hands=None if hands is None else tuple(parse_cards(h) for h in hands),
                position=None if position is None else str(position),
            )
        except (KeyError, ValueError, TypeError, MalformedError) as e:
            raise _bad_deck(f"not a round set-up: {e}") from None


def hand_sizes(variant: Variant, dealer: int) -> tuple[int, ...]:
    """Return each seat's dealt hand size (§1: dealer 6 and 5, or 5 each in cutthroat)."""
    if variant is Variant.CUTTHROAT:
        return (5, 5, 5)
    return tuple(6 if seat == dealer else 5 for seat in range(2))


def deal(setup: RoundSetup) -> tuple[tuple[frozenset[Card], ...], tuple[Card | None, ...]]:
    """Deal a set-up into hands and the remaining deck (ruling 2), top first."""
    players = setup.variant.players
    if setup.position is not None:
        start = parse_position(setup.position)
        return start.hands, start.deck
    if setup.hands is not None:
        hands = tuple(frozenset(h) for h in setup.hands)
        remaining = len(pack(setup.variant)) - sum(len(h) for h in hands)
        return hands, (None,) * remaining
    assert setup.deck is not None
    dealt: list[list[Card]] = [[] for _ in range(players)]
    order = [(setup.dealer + 1 + i) % players for i in range(players)]
    i = 0
    for _ in range(5):
        for seat in order:
            dealt[seat].append(setup.deck[i])
            i += 1
    if players == 2:
        dealt[setup.dealer].append(setup.deck[i])
        i += 1
    return tuple(frozenset(h) for h in dealt), tuple(setup.deck[i:])


def _bad_deck(message: str) -> InvalidSetupError:
    return InvalidSetupError(message, code="INVALID_DECK")


__all__ = [
    "NAMING_KINDS",
    "Phase",
    "Position",
    "PositionFields",
    "RoundSetup",
    "Stack",
    "build_position",
    "card_key",
    "deal",
    "format_position",
    "hand_sizes",
    "pack",
    "parse_position",
    "placed_cards",
]
