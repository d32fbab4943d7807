"""Playing cards and their two-character notation, shared by Cuttle and Kozel.

A card is written rank then suit: ``AS``, ``TH``, ``7C``; ``T`` is the ten, never
``10``. Cutthroat Cuttle adds two jokers, ``X1`` and ``X2``, with no rank or suit.
Rank *order* and card *values* differ between the games, so they live in each
engine; this module only knows what a card is and how it is written.

Cards are interned: parsing the same text twice gives the same object, so
comparisons and hashing stay cheap in the engines' inner loops.

>>> Card.from_text('th')
Card.from_text('TH')
>>> Card.from_text('X1').is_joker
True
>>> [c.text() for c in parse_cards('AS 7H')]
['AS', '7H']

What a person reads (a move's sentence, a drawn table) writes a card as the pages'
table draws it, rank then suit symbol (``table_text``): ``10♣``, ``Q♠``, a joker ``★1``,
its picture ranks as the reader's decks print them (a Russian deck: ``Д♠``). Logs,
moves and the API's ``move`` fields keep the notation.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from domain.errors import MalformedError
from domain.words import ENGLISH, Words

RANKS = "A23456789TJQK"
"""Every rank letter either game uses, in Cuttle's low-to-high order."""
SUITS = "CDHS"
"""Suit letters: clubs, diamonds, hearts, spades (Cuttle's scuttle order, low to high)."""
JOKERS = ("X1", "X2")
SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
"""Each suit's symbol as the table draws it (♣ ♦ ♥ ♠)."""
JOKER_SYMBOL = "\u2605"
"""The star a joker is drawn with, before its number (``★1``)."""


@dataclass(frozen=True, slots=True)
class Card:
    """One card: a rank letter and a suit letter, or a joker (rank ``X``, suit ``1``/``2``)."""

    rank: str
    suit: str

    @classmethod
    def from_text(cls, text: str) -> Card:
        """Parse a card code, ignoring surrounding space and letter case.

        Raises:
            MalformedError (MALFORMED): the text is not a card code.

        >>> Card.from_text(' qd ').text()
        'QD'
        """
        card = _BY_TEXT.get(text.strip().upper())
        if card is None:
            raise MalformedError(
                f"{text!r} is not a card: write rank then suit, like 7H or TS",
                details={"card": text},
            )
        return card

    def text(self) -> str:
        """Return the two-character code."""
        return self.rank + self.suit

    def table(self, words: Words = ENGLISH) -> str:
        """Return the card as the table draws it (``10♥``, ``★1``); see ``table_text``."""
        return table_text(self.rank + self.suit, words)

    @property
    def is_joker(self) -> bool:
        """Whether this is one of cutthroat's two jokers."""
        return self.rank == "X"

    def __str__(self) -> str:
        return self.rank + self.suit

    def __repr__(self) -> str:
        return f"Card.from_text({self.text()!r})"


def _build() -> dict[str, Card]:
    cards = {r + s: Card(r, s) for s in SUITS for r in RANKS}
    cards.update({j: Card(j[0], j[1]) for j in JOKERS})
    return cards


_BY_TEXT: dict[str, Card] = _build()


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Parse space-separated card codes (or an iterable of codes) in order.

    Raises:
        MalformedError (MALFORMED): any item is not a card code.

    >>> parse_cards(['9s', '7H'])
    (Card.from_text('9S'), Card.from_text('7H'))
    """
    items = text.split() if isinstance(text, str) else text
    if type(items) is not list and type(items) is not tuple:
        items = list(items)  # the general path below may read them again
    # Stored and canonical codes are upper case: one look-up a card, on the engines'
    # hot paths (set-ups, moves). Anything else (lower case, space, a bad code, an
    # item that is no text) takes Card.from_text, its normalising and its errors.
    try:
        return tuple([_BY_TEXT[item] for item in items])
    except (KeyError, TypeError):
        return tuple(Card.from_text(item) for item in items)


def format_cards(cards: Iterable[Card]) -> str:
    """Write cards space-separated, in the order given.

    >>> format_cards(parse_cards('AS 7H'))
    'AS 7H'
    """
    return " ".join(card.text() for card in cards)


def rank_text(rank: str, words: Words = ENGLISH) -> str:
    """Return a rank as the reader's decks print it: ``10`` for ``T``, ``★`` for a joker.

    The picture cards and the ace are words of the ``moves`` catalog (context ``rank``):
    a Russian deck prints ``В Д К Т`` for ``J Q K A``.

    >>> rank_text('T'), rank_text('Q'), rank_text('X'), rank_text('7')
    ('10', 'Q', '★', '7')
    """
    if rank == "X":
        return JOKER_SYMBOL
    if rank == "T":
        return "10"
    printed = _PRINTED.get(rank)
    return rank if printed is None else words.pgettext("rank", printed)


# The ranks a deck prints as letters, each written out so that extraction finds it.
_PRINTED = {
    "A": ENGLISH.pgettext("rank", "A"),
    "J": ENGLISH.pgettext("rank", "J"),
    "Q": ENGLISH.pgettext("rank", "Q"),
    "K": ENGLISH.pgettext("rank", "K"),
}


def table_text(code: str, words: Words = ENGLISH) -> str:
    """Return a card code as the table draws it: its printed rank, the suit's symbol.

    The one place cards become text for people to read (sentences, ``matchlog
    replay``, the ranks a page draws); text that is no card code is returned as it is.

    >>> table_text('TH'), table_text('qs'), table_text('X2'), table_text('?')
    ('10♥', 'Q♠', '★2', '?')
    """
    card = _BY_TEXT.get(code.strip().upper())
    if card is None:
        return code
    if card.is_joker:
        return JOKER_SYMBOL + card.suit
    return rank_text(card.rank, words) + SUIT_SYMBOLS[card.suit]


def table_cards(codes: Iterable[str], words: Words = ENGLISH) -> str:
    """Return card codes as the table draws them, space-separated.

    >>> table_cards(['TC', '6H', 'X1'])
    '10♣ 6♥ ★1'
    """
    return " ".join(table_text(str(code), words) for code in codes)


def deck(ranks: str = RANKS, *, jokers: bool = False) -> tuple[Card, ...]:
    """Return one of each card with the given ranks, suit by suit, jokers last.

    >>> len(deck()), len(deck(jokers=True)), len(deck('6789TJQKA'))
    (52, 54, 36)
    """
    cards = [_BY_TEXT[r + s] for s in SUITS for r in ranks]
    if jokers:
        cards.extend(_BY_TEXT[j] for j in JOKERS)
    return tuple(cards)
