"""A Kozel deal in progress and what starts it: ``DealSetup``, beside the ``Position``.

``DealSetup`` (how a deal is set up: a deck order, dealt hands, or a written
position with its match context) is the other way to come by a ``Position``. The
position and its notation are ``domain.kozel.position``'s, the option flags and
their codecs ``domain.kozel.options``'s; both are importable from here.

>>> p = Position.from_text(EXAMPLE)
>>> p.text() == EXAMPLE
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from domain.cards import Card
from domain.errors import InvalidSetupError
from domain.kozel.context import MatchContext, parse_match_position
from domain.kozel.options import (
    KozelOptions,
    format_options,
    options_from_data,
    options_to_data,
    parse_options,
)
from domain.kozel.pack import PACK, PACK_SET, is_interned, parse_kozel_cards
from domain.kozel.position import (
    EXAMPLE,
    Hands,
    Piles,
    Play,
    Position,
    check_position,
    format_position,
    new_position,
    parse_position,
)


@dataclass(frozen=True, slots=True)
class DealSetup:
    """What starts a deal: options, dealer, first leader (R6), and the cards.

    Either ``deck`` (36 cards, top first) with ``indicator_position`` (0-19 in the
    stock, R5, R33), or for a physical deck ``hands`` (four per seat, seat 0 first)
    with the ``indicator`` card (R43), or ``position``: a deal in progress with its
    match context (R40, ``domain.kozel.context``), whose dealer, leader and rules
    are the setup's.

    Raises:
        InvalidSetupError (INVALID_DECK): the cards do not form a Kozel deal.
        InvalidSetupError (INVALID_FORMAT): a seat outside 0-3.
    """

    options: KozelOptions
    dealer: int
    leader: int
    deck: tuple[Card, ...] | None = None
    indicator_position: int | None = None
    hands: tuple[tuple[Card, ...], ...] | None = None
    indicator: Card | None = None
    position: str | None = None

    def __post_init__(self) -> None:
        for name in ("dealer", "leader"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
                raise InvalidSetupError(
                    f"{name} must be a seat 0-3, not {value!r}",
                    code="INVALID_FORMAT",
                    details={name: value},
                )
        if self.position is not None:
            if self.deck is not None or self.hands is not None or self.indicator is not None:
                raise _deck_error("a deal starts from cards or from a position, not both")
            start = self.start()[1]
            if (start.dealer, start.leader, start.options) != (
                self.dealer,
                self.leader,
                self.options,
            ):
                raise _deck_error("the position's dealer, leader and rules must be the setup's")
            return
        if self.deck is not None:
            if self.hands is not None or self.indicator is not None:
                raise _deck_error("give either a deck order or dealt hands, not both")
            if len(self.deck) != 36 or not _is_pack(self.deck):
                raise _deck_error("a deck order names each of the 36 cards once")
            ip = self.indicator_position
            if isinstance(ip, bool) or not isinstance(ip, int) or not 0 <= ip <= 19:
                raise _deck_error(f"the indicator position is 0-19 in the stock, not {ip!r}")
            return
        if self.hands is None or self.indicator is None:
            raise _deck_error("give a deck order, or the dealt hands and the indicator")
        if self.indicator_position is not None:
            raise _deck_error("a physical deck has no known indicator position")
        cards = [c for hand in self.hands for c in hand]
        if len(self.hands) != 4 or any(len(h) != 4 for h in self.hands):
            raise _deck_error("a deal gives four cards to each of four seats")
        if len(set(cards)) != 16 or not set(cards) <= PACK_SET:
            raise _deck_error("the dealt hands name 16 different Kozel cards")
        if self.indicator in set(cards) or self.indicator not in PACK_SET:
            raise _deck_error("the indicator is a Kozel card that lies in the stock")

    @property
    def is_physical(self) -> bool:
        """Whether the stock is unknown (a physical deck, R43)."""
        return self.deck is None

    def start(self) -> tuple[MatchContext, Position]:
        """Return the match context and the position of a setup from a ``position``."""
        assert self.position is not None
        return parse_match_position(self.position)

    def to_data(self) -> dict[str, Any]:
        """Return the setup as JSON-ready data (stored in the deal's first event).

        >>> s = DealSetup(KozelOptions(), 0, 1, deck=PACK, indicator_position=7)
        >>> DealSetup.from_data(s.to_data()) == s
        True
        """
        data: dict[str, Any] = {
            "options": options_to_data(self.options),
            "dealer": self.dealer,
            "leader": self.leader,
        }
        if self.position is not None:
            data["position"] = self.position
        elif self.deck is not None:
            data["deck"] = [c.rank + c.suit for c in self.deck]
            data["indicator_position"] = self.indicator_position
        else:
            assert self.hands is not None and self.indicator is not None
            data["hands"] = [[c.rank + c.suit for c in hand] for hand in self.hands]
            data["indicator"] = self.indicator.text()
        return data

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> DealSetup:
        """Rebuild a setup from ``to_data`` output.

        Raises:
            MalformedError (MALFORMED): a card code cannot be read.
            InvalidSetupError (INVALID_FORMAT, INVALID_DECK): as for the constructor,
                or a field of the wrong shape.
        """
        try:
            options = options_from_data(data.get("options", {}))
            if "position" in data:
                return cls(options, data["dealer"], data["leader"], position=data["position"])
            if "deck" in data:
                return cls(
                    options,
                    data["dealer"],
                    data["leader"],
                    deck=parse_kozel_cards(data["deck"]),
                    indicator_position=data["indicator_position"],
                )
            hands = tuple(parse_kozel_cards(hand) for hand in data["hands"])
            indicator = parse_kozel_cards([data["indicator"]])[0]
            return cls(options, data["dealer"], data["leader"], hands=hands, indicator=indicator)
        except (KeyError, TypeError, AttributeError) as exc:
            raise InvalidSetupError(
                f"a deal setup needs options, dealer, leader and cards ({exc!r})",
                code="INVALID_FORMAT",
            ) from exc


def _is_pack(cards: tuple[Card, ...]) -> bool:
    """Whether ``cards`` are the 36 cards of the pack, each once."""
    if is_interned(cards):
        # The shared card objects: distinct objects are distinct cards, and no
        # dataclass is hashed.
        return len({id(c) for c in cards}) == len(PACK)
    return set(cards) == PACK_SET


def _deck_error(why: str) -> InvalidSetupError:
    return InvalidSetupError(why, code="INVALID_DECK")


__all__ = [
    "EXAMPLE",
    "DealSetup",
    "Hands",
    "Piles",
    "Play",
    "Position",
    "check_position",
    "format_options",
    "format_position",
    "new_position",
    "options_from_data",
    "options_to_data",
    "parse_options",
    "parse_position",
]
