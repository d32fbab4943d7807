"""The 36-card Kozel pack: rank order, card points and the beating tests (rules §3).

Cards are the shared interned ``domain.cards.Card`` objects; this module adds what
is Kozel's own: the rank order ``6 7 8 9 J Q K T A`` (§3.2), the card points
(§3.3), when a card beats a card (§3.4) and when a set beats a set (§3.5, R9).

>>> beats(Card.from_text('6H'), Card.from_text('AS'), 'H')
True
>>> set_beats(parse_cards('TH QH'), parse_cards('9H KH'), 'C')
True
>>> set_beats(parse_cards('8D 6D'), parse_cards('AS 7D'), 'D')
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from domain.cards import Card, deck, parse_cards
from domain.errors import MalformedError

RANK_ORDER = "6789JQKTA"
"""Kozel ranks from lowest to highest (§3.2): the ten ranks above the king."""

PACK: tuple[Card, ...] = deck(RANK_ORDER)
"""The 36 cards, suit by suit (clubs, diamonds, hearts, spades), low to high."""

PACK_SET: frozenset[Card] = frozenset(PACK)

RANK_INDEX: dict[str, int] = {rank: i for i, rank in enumerate(RANK_ORDER)}
"""Rank letter to its place in the rank order (6 is 0, ace is 8)."""
_RANK_POINTS: dict[str, int] = dict(zip(RANK_ORDER, (0, 0, 0, 0, 2, 3, 4, 10, 11), strict=True))
_INDEX: dict[Card, int] = {card: i for i, card in enumerate(PACK)}
# Cards are interned, so the engine's inner loops key on id() instead of hashing
# dataclasses; ``interned`` maps any equal card onto the shared object first.
_INDEX_BY_ID: dict[int, int] = {id(card): i for i, card in enumerate(PACK)}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def rank_index(card: Card) -> int:
    """Return the card's place in the Kozel rank order (6 is 0, ace is 8)."""
    return RANK_INDEX[card.rank]


def points(card: Card) -> int:
    """Return the card points of one card (§3.3).

    >>> points(Card.from_text('TS')), points(Card.from_text('6S'))
    (10, 0)
    """
    return _RANK_POINTS[card.rank]


def card_points(cards: Iterable[Card]) -> int:
    """Return the card points of several cards."""
    table = _RANK_POINTS
    return sum([table[card.rank] for card in cards])


def card_index(card: Card) -> int:
    """Return the card's place in the canonical order: suit (C D H S), then rank."""
    return _INDEX[card]


def sort_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Return the cards in canonical order: by suit (C D H S), then rank low to high.

    >>> [c.text() for c in sort_cards(parse_cards('AS 6C TC'))]
    ['6C', 'TC', 'AS']
    """
    order = _INDEX_BY_ID
    return tuple([PACK[i] for i in sorted([order[id(c)] for c in cards])])


def is_interned(cards: Iterable[Card]) -> bool:
    """Whether every card is one of the 36 shared card objects (``Card.from_text``'s)."""
    return all(map(_INDEX_BY_ID.__contains__, map(id, cards)))


def interned(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Return the shared card objects equal to ``cards`` (which must be Kozel cards)."""
    return tuple(PACK[_INDEX[c]] for c in cards)


def parse_kozel_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Parse card codes that must all belong to the 36-card pack.

    Raises:
        MalformedError (MALFORMED): a code is not one of the 36 Kozel cards.

    >>> parse_kozel_cards('th 6c')
    (Card.from_text('TH'), Card.from_text('6C'))
    """
    cards = parse_cards(text)
    if is_interned(cards):
        return cards  # parsed cards are the shared objects: these are all of the pack
    for card in cards:
        if card not in PACK_SET:
            raise MalformedError(
                f"{card.text()!r} is not a Kozel card: ranks are 6 7 8 9 T J Q K A",
                details={"card": card.text()},
            )
    return cards


def beats(x: Card, y: Card, trump: str) -> bool:
    """Whether card ``x`` beats card ``y`` with trump suit ``trump`` (§3.4)."""
    if x.suit == y.suit:
        return RANK_INDEX[x.rank] > RANK_INDEX[y.rank]
    return x.suit == trump


def set_beats(play: Sequence[Card], top: Sequence[Card], trump: str) -> bool:
    """Whether ``play`` beats the top set ``top``: a one-to-one pairing exists (§3.5, R9).

    The order of either set carries no meaning: the test is Hall's condition on the
    "beats" relation (every group of play cards beats at least as many top cards),
    so ``8D 6D`` beats ``AS 7D`` with diamonds trumps even though pairing ``8D``
    with ``AS`` first leads nowhere.
    """
    n = len(play)
    if n != len(top):
        return False
    if n == 1:
        return beats(play[0], top[0], trump)
    return covers(beat_masks(play, top, trump))


def beat_masks(play: Sequence[Card], top: Sequence[Card], trump: str) -> tuple[int, ...]:
    """For each play card, a bit mask of the top cards it beats (bit ``j`` = ``top[j]``)."""
    rank = RANK_INDEX
    tops = [(t.suit, rank[t.rank]) for t in top]
    masks = []
    for card in play:
        suit, r = card.suit, rank[card.rank]
        mask = 0
        for j, (t_suit, t_rank) in enumerate(tops):
            if (suit == t_suit and r > t_rank) or (suit == trump and t_suit != trump):
                mask |= 1 << j
        masks.append(mask)
    return tuple(masks)


_SUBSETS: dict[int, tuple[tuple[tuple[int, ...], int], ...]] = {
    n: tuple(
        (tuple(i for i in range(n) if bits >> i & 1), bits.bit_count()) for bits in range(1, 1 << n)
    )
    for n in range(1, 5)
}


def covers(masks: Sequence[int]) -> bool:
    """Whether the cards with these beat masks can each cover a different top card (Hall).

    >>> covers((0b11, 0b01)), covers((0b01, 0b01))
    (True, False)
    """
    for indices, size in _SUBSETS[len(masks)]:
        union = 0
        for i in indices:
            union |= masks[i]
        if union.bit_count() < size:
            return False
    return True


__all__ = [
    "PACK",
    "PACK_SET",
    "RANK_INDEX",
    "RANK_ORDER",
    "SUIT_NAMES",
    "Card",
    "beat_masks",
    "beats",
    "card_index",
    "card_points",
    "covers",
    "interned",
    "is_interned",
    "parse_kozel_cards",
    "points",
    "rank_index",
    "set_beats",
    "sort_cards",
]
