"""Kozel actions and their one-line text notation (R45).

One line per action, seat first, cards as in §3.1::

    S0 lead 7S KS       S1 beat TS AS       S2 throw 6D 8C
    S3 molodka          cards 7H 8D 9S 6C   (the scorer names drawn cards, R46)
    S1 concede          (either partner concedes the match for the team, R47)

A play's cards are a set (R9): ``S0 lead QH AH`` and ``S0 lead AH QH`` are one move,
written in canonical order. The scorer's ``cards`` keep their order: the draw order.

>>> Move.from_text('s1 beat ts as')
Move.from_text('S1 beat TS AS')
>>> Move.from_text('S3 molodka').seat
3
>>> Move.from_text('cards 7H 8D').seat is None
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from domain.cards import Card, format_cards
from domain.errors import MalformedError
from domain.kozel.pack import is_interned, parse_kozel_cards, sort_cards
from domain.records import builder

LEAD: Final = "lead"
BEAT: Final = "beat"
THROW: Final = "throw"
MOLODKA: Final = "molodka"
CARDS: Final = "cards"
CONCEDE: Final = "concede"
PLAYER_ACTIONS: Final = (LEAD, BEAT, THROW, MOLODKA)
"""The actions a seat makes in a deal (§13); ``cards`` is the scorer's (R46)."""


@dataclass(frozen=True, slots=True)
class Move:
    """One action: its kind, the acting seat (``None`` for the scorer's ``cards``), its cards.

    A play's cards are a set (R9), kept in canonical order, so the same play is one
    value whatever order it was written in; a ``cards`` action keeps the draw order.

    >>> Move.from_text('S0 lead QH AH') == Move.from_text('S0 lead AH QH')
    True
    """

    kind: str
    seat: int | None
    cards: tuple[Card, ...] = ()

    def __post_init__(self) -> None:
        if self.kind != CARDS and len(self.cards) > 1:
            object.__setattr__(self, "cards", canonical_cards(self.cards))

    @classmethod
    def from_text(cls, text: str) -> Move:
        """Parse one action in the R45 notation; case and surrounding space are ignored.

        Raises:
            MalformedError (MALFORMED): unknown action, a seat other than S0-S3, a code
                that is not one of the 36 cards, or cards after ``molodka`` (R35).

        >>> Move.from_text('S2 throw 6d 8c').text()
        'S2 throw 8C 6D'
        >>> Move.from_text('S4 lead 7S')
        Traceback (most recent call last):
        ...
        domain.errors.MalformedError: 'S4' is not a seat: write S0, S1, S2 or S3
        """
        # Moves are immutable values, so one parse serves every later line with the
        # same text (an import reads each common move text thousands of times).
        # Only successful parses are kept, and the cache is bounded.
        if cls is Move and type(text) is str:
            move = _PARSED.get(text)
            if move is None:
                move = _parse(text)
                if len(_PARSED) < PARSED_CACHE_SIZE:
                    _PARSED[text] = move
            return move
        return _parse(text, cls)

    def text(self) -> str:
        """Return the R45 text of this action.

        >>> Move(LEAD, 0, (Card.from_text('7S'), Card.from_text('KS'))).text()
        'S0 lead 7S KS'
        """
        head = CARDS if self.seat is None else f"S{self.seat} {self.kind}"
        return f"{head} {format_cards(self.cards)}" if self.cards else head

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Move.from_text({self.text()!r})"


PARSED_CACHE_SIZE: Final = 100_000
"""How many distinct move texts ``Move.from_text`` remembers."""
_PARSED: dict[str, Move] = {}

build_move = builder(Move)
"""``make_move`` with every field given: the move generator calls it straight.

Playouts build a move per legal move listed; a call to this rather than through
``make_move`` saves one Python call each: 2.2% of a Kozel playout's instructions
(callgrind, ``bench/engine_playout.py kozel --variant default --rounds 300`` less
``--rounds 0``: 771.3M through ``make_move``, 754.1M straight, ratio 0.978).
"""


def make_move(kind: str, seat: int | None, cards: tuple[Card, ...] = ()) -> Move:
    """Build a ``Move`` without the frozen dataclass's ``__init__`` (for move generation).

    The cards of a play must already be in canonical order (``canonical_cards``).

    >>> make_move(LEAD, 0, ()) == Move(LEAD, 0)
    True
    """
    move: Move = build_move(kind, seat, cards)
    return move


def canonical_cards(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    """Return a play's cards in canonical order (by suit, then rank); others as given.

    Cards outside the pack are left in place: such a move is ``MALFORMED`` anyway.

    >>> format_cards(canonical_cards(parse_kozel_cards('AH QH 7C')))
    '7C QH AH'
    """
    if not is_interned(cards):
        return cards
    ordered = sort_cards(cards)
    return cards if ordered == cards else ordered


def _parse(text: str, cls: type[Move] = Move) -> Move:
    """Parse one action (``Move.from_text`` without its cache)."""
    tokens = text.split()
    if not tokens:
        raise MalformedError("an empty line is not an action", details={"text": text})
    make = make_move if cls is Move else cls
    head = tokens[0].lower()
    if head == CARDS:
        return make(CARDS, None, parse_kozel_cards(tokens[1:]))
    seat = _parse_seat(tokens[0])
    if len(tokens) < 2:
        raise MalformedError(
            f"{text!r} names no action: write lead, beat, throw, molodka or concede",
            details={"text": text},
        )
    kind = tokens[1].lower()
    if kind not in PLAYER_ACTIONS and kind != CONCEDE:
        raise MalformedError(
            f"{tokens[1]!r} is not an action: write lead, beat, throw, molodka or concede",
            details={"text": text, "action": tokens[1]},
        )
    if kind == CONCEDE:
        if len(tokens) > 2:
            raise MalformedError("concede names no cards", details={"text": text})
        return make(kind, seat, ())
    cards = parse_kozel_cards(tokens[2:])
    if kind == MOLODKA and cards:
        raise MalformedError(
            "molodka names no cards: the four cards are the declarer's whole hand",
            details={"text": text},
        )
    return make(kind, seat, canonical_cards(cards))


def _parse_seat(token: str) -> int:
    t = token.upper()
    if len(t) == 2 and t[0] == "S" and t[1] in "0123":
        return int(t[1])
    raise MalformedError(
        f"{token!r} is not a seat: write S0, S1, S2 or S3", details={"seat": token}
    )


__all__ = [
    "BEAT",
    "CARDS",
    "CONCEDE",
    "LEAD",
    "MOLODKA",
    "PLAYER_ACTIONS",
    "THROW",
    "Move",
    "build_move",
    "canonical_cards",
    "make_move",
]
