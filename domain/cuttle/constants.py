"""Fixed tables of the Cuttle engine: goals, hand limits, card values and strengths.

Also the phase and variant members bound as globals, and the one-card sets the
engine builds hands and the scrap from; every engine module reads them from here.
"""

from __future__ import annotations

from domain.cards import Card
from domain.cuttle.outcome import Variant
from domain.cuttle.state import Phase, pack

# Enum members bound once: ``Phase.MAIN`` is an attribute look-up through the enum's
# metaclass, about ten times a global's cost, and the engine compares phases and
# variants several times a move.
_COUNTER = Phase.COUNTER
_DRAW_OFFERED = Phase.DRAW_OFFERED
_MAIN = Phase.MAIN
_NAME_CARDS = Phase.NAME_CARDS
_RESOLVE_FIVE = Phase.RESOLVE_FIVE
_RESOLVE_FOUR = Phase.RESOLVE_FOUR
_RESOLVE_SEVEN = Phase.RESOLVE_SEVEN
_RESOLVE_THREE = Phase.RESOLVE_THREE
_ROUND_OVER = Phase.ROUND_OVER
_CLASSIC = Variant.CLASSIC
_CUTTHROAT = Variant.CUTTHROAT
_STANDARD = Variant.STANDARD


GOALS = {
    _CLASSIC: (21, 14, 10, 7, 5),
    _STANDARD: (21, 14, 10, 5, 0),
    _CUTTHROAT: (14, 9, 5, 0, 0),
}
"""Point goal by number of kings controlled (§15.1)."""
HAND_LIMITS = {_CLASSIC: None, _STANDARD: 8, _CUTTHROAT: 7}
"""Hand limit per variant (§12); it only restricts drawing."""

_POINT_RANKS = frozenset("A23456789T")
_ONEOFF_RANKS = frozenset("A2345679")
_PERM_ACTIONS = {"glasses": "8", "queen": "Q", "king": "K"}


_VALUE = {rank: i + 1 for i, rank in enumerate("A23456789T")}


_RANK_STRENGTH = {rank: i * 4 for i, rank in enumerate("A23456789TJQK")}
_RANK_STRENGTH["X"] = 100  # jokers sort last, like card_key
_SUIT_STRENGTH = {suit: i for i, suit in enumerate("CDHS12")}


def _strength(card: Card) -> int:
    return _RANK_STRENGTH[card.rank] + _SUIT_STRENGTH[card.suit]


_ONES = {id(card): frozenset((card,)) for card in pack(_CUTTHROAT)}


def _one(card: Card) -> frozenset[Card]:
    """Return ``{card}`` as a set built once: set operations reuse its stored hash."""
    # A card's hash is a Python-level call (a dataclass); hands gain and lose a card
    # on most moves. Cards are interned, and each set holds its card, so their ids are
    # stable keys. Measured to pay (issue 18), on the same 900 rounds of
    # bench/playouts/cuttle.py under callgrind: 2,902.0M instructions with ``_ONES``,
    # 2,941.9M building each set afresh and scrapping through ``set(cards)`` (+1.4%).
    one = _ONES.get(id(card))
    return frozenset((card,)) if one is None else one
