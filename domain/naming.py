"""Naming drawn cards (Cuttle §24, Kozel R46): what the scorer must name, the same in both games.

With a physical deck the cards drawn are unknown until the scorer names them, in
draw order, in one ``cards`` move. ``GameRules.cards_to_name(position)`` says how many
and which: a ``CardsToName``, or ``None`` when nothing waits. A caller picks names
from it (a pad's grid, a random sample) and never lists the orderings: a Kozel deal
may wait for 16 cards out of 20, 20!/4! orderings.

>>> from domain.cards import Card
>>> ask = CardsToName(2, tuple(Card.from_text(c) for c in ('6S', '7S', '8S')))
>>> ask.orderings(), [' '.join(c.text() for c in n) for n in ask.generate_namings()][:3]
(6, ['6S 7S', '6S 8S', '7S 6S'])
>>> ask.is_naming(tuple(Card.from_text(c) for c in ('8S', '6S')))
True
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import permutations
from math import perm

from domain.cards import Card


@dataclass(frozen=True, slots=True)
class CardsToName:
    """The cards the scorer must name now: how many, in draw order, and which may be named.

    A naming is ``count`` different cards. Each comes from ``candidates`` (in the
    game's pack order), except that when ``last`` is set the last card named is
    ``last`` and only there (Kozel's indicator lying under the stock with
    ``trump_indicator_bottom``, drawn last, R32): ``free`` candidates, then ``last``.
    Every such naming is legal, and no other.
    """

    count: int
    candidates: tuple[Card, ...]
    last: Card | None = None

    @property
    def free(self) -> int:
        """How many of the named cards are picked from ``candidates``."""
        return self.count - (self.last is not None)

    def orderings(self) -> int:
        """Return how many namings are legal (what ``len(legal_moves(p))`` counts)."""
        return perm(len(self.candidates), self.free)

    def generate_namings(self) -> Iterator[tuple[Card, ...]]:
        """Yield every legal naming, lazily: candidates' orderings, then ``last``."""
        tail = () if self.last is None else (self.last,)
        for picked in permutations(self.candidates, self.free):
            yield picked + tail

    def is_naming(self, cards: tuple[Card, ...]) -> bool:
        """Whether ``cards`` is a legal naming (the engines' checks give the refusal's code)."""
        if len(cards) != self.count or len(set(cards)) != len(cards):
            return False
        if self.last is not None and cards[-1] != self.last:
            return False
        return all(card in self.candidates for card in cards[: self.free])


__all__ = ["CardsToName"]
